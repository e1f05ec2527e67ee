/** The Postgres server tests use; CI and the development machines run one here. */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Set by the global setup when the server answered; absent when tests must skip. */
export const POSTGRES_AVAILABLE_ENV = 'GIRO_TEST_POSTGRES_AVAILABLE';
