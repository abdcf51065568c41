-- Statements for the held-out PostgreSQL log (capture_kinds.sh heldout-h2): a slow join, a unique
-- and a check violation, a slow pg_sleep, a statement timeout.
CREATE TABLE accounts (id int PRIMARY KEY, email text UNIQUE NOT NULL, balance numeric CHECK (balance >= 0));
INSERT INTO accounts SELECT g, 'user' || g || '@example.com', 100 FROM generate_series(1, 50000) g;
SELECT count(*) FROM accounts a JOIN accounts b ON a.balance = b.balance AND a.id < b.id AND a.id < 300;
INSERT INTO accounts VALUES (7, 'dup@example.com', 10);
UPDATE accounts SET balance = balance - 500 WHERE id = 3;
SELECT pg_sleep(0.3), 'report' AS job;
SET statement_timeout = '100ms';
SELECT pg_sleep(1);
