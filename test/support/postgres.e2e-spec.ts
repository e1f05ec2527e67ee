import { Client } from 'pg';
import { createTestDatabase, describeWithPostgres } from './postgres';

describeWithPostgres('test databases', () => {
  it('creates an isolated database and drops it', async () => {
    const db = await createTestDatabase();
    const client = new Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query<{ name: string }>('select current_database() as name');
    await client.end();
    expect(rows[0]?.name).toBe(db.name);
    await db.drop();
    const check = new Client({ connectionString: db.url });
    await expect(check.connect()).rejects.toThrow(/does not exist/);
  });
});
