/** Injection token of the StatementColumnNames the admin API reads statements with (the `statementColumns` option). */
export const STATEMENT_COLUMN_NAMES = Symbol('giro:StatementColumnNames');
