import type { MovementView } from '@giro/transfer-module';
import { type MovementPage, movementsOf } from './movement-pages';

const movement = (originId: number) => ({ originId }) as MovementView;

describe('movementsOf', () => {
  it('yields every page in order, asking for the next one only when the previous is consumed', async () => {
    const pages: Record<string, MovementPage> = {
      '2': { items: [movement(3), movement(4)], nextCursor: '4' },
      '4': { items: [movement(5)], nextCursor: null },
    };
    const asked: string[] = [];
    const movements = movementsOf({ items: [movement(1), movement(2)], nextCursor: '2' }, async (after) => {
      asked.push(after);
      return pages[after];
    });
    const first = await movements.next();
    expect(first.value).toEqual(movement(1));
    expect(asked).toEqual([]);
    const rest: number[] = [];
    for await (const { originId } of movements) rest.push(originId);
    expect(rest).toEqual([2, 3, 4, 5]);
    expect(asked).toEqual(['2', '4']);
  });

  it('ends after a last page, even an empty one', async () => {
    const seen: MovementView[] = [];
    for await (const item of movementsOf({ items: [], nextCursor: null }, async () => {
      throw new Error('no next page to ask for');
    }))
      seen.push(item);
    expect(seen).toEqual([]);
  });
});
