// The SQLite schemas search-write-instructions.ts compares: the search's indexes as the migrations make them, none
// of them, each one left out, and the text's FTS5 index made lighter. Each is a list of statements run on a copy
// of the seeded file.

/** The search's B-trees on giro_movements (search/ in the module reads them). */
export const SEARCH_BTREES = [
  'IDX_giro_movements_from_address',
  'IDX_giro_movements_to_address',
  'IDX_giro_movements_from_person',
  'IDX_giro_movements_to_person',
  'IDX_giro_movements_status_amount',
  'IDX_giro_movements_created',
  'IDX_giro_movements_status_created',
] as const;

const TEXT_REMOVED = [
  'DROP TRIGGER "TRG_giro_movement_text_update"',
  'DROP TRIGGER "TRG_giro_movement_text_delete"',
  'DROP TABLE "giro_movement_text"',
];

/**
 * In the FTS5 table's place when it is dropped: a view that takes the rows a giro transaction indexes just before its
 * COMMIT (the module's engine/sqlite-text-index.ts) and keeps none. `DROP VIEW` takes its trigger along.
 */
export const TEXT_STAND_IN = [
  `CREATE VIEW "giro_movement_text" ("rowid", "description") AS SELECT NULL, NULL WHERE 0`,
  `CREATE TRIGGER "giro_movement_text_stand_in" INSTEAD OF INSERT ON "giro_movement_text" BEGIN SELECT 1; END`,
];

const TEXT_DROPPED = [...TEXT_REMOVED, ...TEXT_STAND_IN];

/** The description's FTS5 trigram index with other options, filled again from the table. */
function textWith(options: string): string[] {
  return [
    ...TEXT_REMOVED,
    `CREATE VIRTUAL TABLE "giro_movement_text" USING fts5("description", content='giro_movements', content_rowid='origin_id', tokenize='trigram'${options})`,
    `CREATE TRIGGER "TRG_giro_movement_text_update" AFTER UPDATE OF "description" ON "giro_movements" BEGIN
    INSERT INTO "giro_movement_text" ("giro_movement_text", "rowid", "description") VALUES ('delete', old."origin_id", old."description");
    INSERT INTO "giro_movement_text" ("rowid", "description") VALUES (new."origin_id", new."description");
  END`,
    `CREATE TRIGGER "TRG_giro_movement_text_delete" AFTER DELETE ON "giro_movements" BEGIN
    INSERT INTO "giro_movement_text" ("giro_movement_text", "rowid", "description") VALUES ('delete', old."origin_id", old."description");
  END`,
    `INSERT INTO "giro_movement_text" ("giro_movement_text") VALUES ('rebuild')`,
  ];
}

export interface WriteVariant {
  key: string;
  label: string;
  statements: string[];
  /** Whether the create path's insert alone and the sweep's answers are counted too (the B-trees' phases). */
  answers: boolean;
}

export const SEARCH_WRITE_VARIANTS: WriteVariant[] = [
  { key: 'migrated', label: 'as migrated', statements: [], answers: true },
  {
    key: 'none',
    label: "without the search's indexes",
    statements: [...SEARCH_BTREES.map((name) => `DROP INDEX "${name}"`), ...TEXT_DROPPED],
    answers: true,
  },
  { key: 'no-text', label: 'without the text (FTS5)', statements: TEXT_DROPPED, answers: true },
  {
    key: 'no-btrees',
    label: "without the search's B-trees",
    statements: SEARCH_BTREES.map((name) => `DROP INDEX "${name}"`),
    answers: true,
  },
  // Each B-tree against "without the text": FTS5's merges, which fall unevenly into a short run, left out of both.
  ...SEARCH_BTREES.map((name) => ({
    key: `no-${name.replace('IDX_giro_movements_', '')}`,
    label: `without the text and ${name}`,
    statements: [...TEXT_DROPPED, `DROP INDEX "${name}"`],
    answers: true,
  })),
  // The amount's own index, which AmountFromStatusIndex1798315200000 dropped, against "without the text".
  {
    key: 'with-amount',
    label: 'without the text, with the amount index dropped since',
    statements: [
      ...TEXT_DROPPED,
      'CREATE INDEX "IDX_giro_movements_amount" ON "giro_movements" ("amount_cents", "created_at_ms", "origin_id")',
    ],
    answers: false,
  },
  {
    key: 'text-detail-none',
    label: 'text: detail=none, columnsize=0',
    statements: textWith(", detail='none', columnsize=0"),
    answers: false,
  },
  {
    key: 'text-detail-column',
    label: 'text: detail=column, columnsize=0',
    statements: textWith(", detail='column', columnsize=0"),
    answers: false,
  },
  {
    key: 'text-columnsize',
    label: 'text: columnsize=0',
    statements: textWith(', columnsize=0'),
    answers: false,
  },
];
