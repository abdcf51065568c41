#!/usr/bin/env bash
# Session 10, issue 25.4 (build category): make/gcc and setup.py build_ext over brotli 1.2.1's C sources
# (the PyPI sdist: 40-odd .c files under c/), s10_* fixtures under tests/fixtures/make and tests/fixtures/setuptools.
#   make     a plain Makefile below (a pattern rule per .c, ar, one link) driven with `make -j2`: a green build,
#            the same with extra warning flags (-Wcast-qual -Wmissing-prototypes: the sources' real warnings), and with the
#            include directory left out and -k (every compile fails on the missing header)
#   setup.py `python setup.py build_ext --inplace` of the sdist (setuptools' own echo of each gcc command)
# Needs: gcc, make, python3 -m venv with pip reaching a package index. LANG=C. Output goes through
# sqz_testing.redact_registries; sidecars keep their hand-written facts/notes (command, produced_by, exit_code refreshed).
set -u
HERE="$(cd "$(dirname "$0")/.." && pwd)"
FIX="$HERE/tests/fixtures"
W=/tmp/sqz-capture/build-s10
PY=${PYTHON:-python3}
SQZ_PY=${SQZ_PYTHON:-"$HERE/../.venv/bin/python"}
. "$HERE/../sqz_core/scripts/_capture_lib.sh"  # scrub, meta
export LANG=C LC_ALL=C
mkdir -p "$W" && cd "$W" || exit 1

cap() {  # cap FAMILY NAME "produced_by" CMD...  (CMDLINE is what the sidecar records)
  local fam=$1 name=$2 by=$3; shift 3
  mkdir -p "$FIX/$fam"
  "$@" >"$W/.out" 2>&1
  local rc=$?
  scrub <"$W/.out" >"$FIX/$fam/$name.txt"
  meta "$FIX/$fam/$name.json" "$CMDLINE" "$by" "$rc"
  echo "captured $fam/$name (exit $rc, $(wc -c <"$FIX/$fam/$name.txt") bytes)"
}

[ -x "$W/venv/bin/python" ] || "$PY" -m venv "$W/venv"
[ -f brotli-1.2.1.tar.gz ] || "$W/venv/bin/pip" download -q --no-binary :all: --no-deps 'brotli==1.2.1' || exit 1
fresh() { rm -rf "$W/brotli-1.2.1" && tar xzf "$W/brotli-1.2.1.tar.gz" -C "$W" && cd "$W/brotli-1.2.1"; }
GCCV="$(gcc --version | head -1)"; MAKEV="$(make --version | head -1)"

makefile() {
cat > Makefile <<'MK'
CC = gcc
CFLAGS = -O2 -fPIC
INC = -Ic/include
SRC = $(wildcard c/common/*.c c/dec/*.c c/enc/*.c)
OBJ = $(SRC:.c=.o)

all: brotli

%.o: %.c
	$(CC) $(CFLAGS) $(INC) -c $< -o $@

libbrotli.a: $(OBJ)
	ar rcs $@ $^

brotli: c/tools/brotli.o libbrotli.a
	$(CC) -o $@ $^ -lm
MK
}

fresh && makefile
CMDLINE="make -j2"; cap make s10_brotli_green_j2 "$MAKEV; $GCCV; brotli 1.2.1 sources" make -j2
fresh && makefile
CMDLINE="make -j2 CFLAGS='-O2 -fPIC -Wall -Wextra -Wcast-qual -Wmissing-prototypes'"
cap make s10_brotli_warnings_j2 "$MAKEV; $GCCV; brotli 1.2.1 sources" make -j2 CFLAGS='-O2 -fPIC -Wall -Wextra -Wcast-qual -Wmissing-prototypes'
fresh && makefile
CMDLINE="make -k INC="; cap make s10_brotli_missing_include_k "$MAKEV; $GCCV; brotli 1.2.1 sources" make -k INC=
fresh
SETV="setuptools $("$W/venv/bin/python" -c 'import setuptools; print(setuptools.__version__)')"
CMDLINE="python setup.py build_ext --inplace"
cap setuptools s10_brotli_build_ext "$SETV; $GCCV; brotli 1.2.1 sdist" "$W/venv/bin/python" setup.py build_ext --inplace
