import type { MigrationInterface, QueryRunner } from 'typeorm';

type MigrationClass = new () => MigrationInterface;

/** Set on the migration run's query runner (TypeORM's `data`, for its users) when the baseline built the schema. */
const BUILT_BY_BASELINE = 'giroSchemaBuiltByBaseline';

/** Tells the steps of this migration run that the baseline built the schema they would make. */
export function markBuiltByBaseline(queryRunner: QueryRunner): void {
  queryRunner.data[BUILT_BY_BASELINE] = true;
}

/**
 * The steps that TransferSchemaBaseline1795291100000 covers, each made to do nothing in the run where the baseline
 * built the schema (TypeORM runs a data source's pending migrations on one query runner): they are recorded as run,
 * so TypeORM's table says what it says on a database the steps made, and a step undone later runs again for real.
 * A database made by an earlier build has the schema: the baseline does nothing there, and its steps run.
 */
export function coveredByBaseline(steps: MigrationClass[]): MigrationClass[] {
  return steps.map((Step) => {
    const Covered = class extends Step {
      override async up(queryRunner: QueryRunner): Promise<void> {
        if (queryRunner.data[BUILT_BY_BASELINE] === true) return;
        await super.up(queryRunner);
      }
    };
    // TypeORM and TRANSFER_MIGRATIONS name a migration by its class (and its instance's `name`, kept by Step).
    Object.defineProperty(Covered, 'name', { value: Step.name });
    return Covered;
  });
}
