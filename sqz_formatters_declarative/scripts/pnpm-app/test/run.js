// A tiny in-house test runner: one line per check, a summary, exit 1 on any failure.
const ms = require("ms");
const semver = require("semver");
const checks = [];
const check = (name, fn) => checks.push([name, fn]);
for (const [text, want] of [["1s", 1000], ["2m", 120000], ["1h", 3600000], ["1d", 86400000], ["10s", 10000],
                            ["5m", 300000], ["2h", 7200000], ["3d", 259200000], ["1w", 604800000], ["1y", 31557600000]]) {
  check(`ms parses ${text}`, () => { if (ms(text) !== want) throw new Error(`ms(${text}) = ${ms(text)}, expected ${want}`); });
}
for (const [a, b] of [["1.2.3", "1.2.4"], ["1.0.0", "2.0.0"], ["0.9.9", "1.0.0"], ["1.2.3-beta", "1.2.3"]]) {
  check(`semver orders ${a} < ${b}`, () => { if (!semver.lt(a, b)) throw new Error(`${a} is not before ${b}`); });
}
check("semver range accepts 1.5.0 for ^1.2.0", () => { if (!semver.satisfies("1.5.0", "^1.2.0")) throw new Error("no"); });
check("ms formats 90000 as 2m", () => { const got = ms(90000); if (got !== "2m") throw new Error(`ms(90000) = ${got}, expected 2m`); });
check("semver coerces v2 to 2.0.0", () => { const got = String(semver.coerce("v2")); if (got !== "2.0.0") throw new Error(got); });
check("semver rejects 1.2 as invalid", () => { if (semver.valid("1.2") !== null) throw new Error("valid"); });
check("ms parses 1.5h as 5400000", () => { if (ms("1.5h") !== 5400000) throw new Error(`ms(1.5h) = ${ms("1.5h")}`); });
check("semver.maxSatisfying picks 1.3.0", () => {
  const got = semver.maxSatisfying(["1.2.0", "1.3.0", "2.0.0"], "~1.2.0");
  if (got !== "1.3.0") throw new Error(`maxSatisfying(~1.2.0) = ${got}, expected 1.3.0`);
});
let failed = 0;
for (const [name, fn] of checks) {
  try { fn(); console.log(`ok - ${name}`); }
  catch (e) { failed++; console.log(`not ok - ${name}`); console.log(`  error: ${e.message}`); }
}
console.log(`${checks.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
