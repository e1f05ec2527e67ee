import type { MigrationInterface, QueryRunner } from 'typeorm';

// The W3C `traceparent` of the change that wrote an event, when that change was traced: a delivery, made later and
// perhaps by another replica, continues that trace and hands it on to the receiver. Null without tracing. Same DDL
// on both engines.

export class WebhookEventTraceParent1797408000000 implements MigrationInterface {
  name = 'WebhookEventTraceParent1797408000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "giro_webhook_events" ADD COLUMN "trace_parent" varchar(55)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "giro_webhook_events" DROP COLUMN "trace_parent"');
  }
}
