import { DatabaseOutageNotice, SAME_OUTAGE_MS } from './database-outage-notice';

describe('DatabaseOutageNotice', () => {
  it('says the first failure of an outage, not the ones that follow it', () => {
    const notice = new DatabaseOutageNotice();
    expect(notice.failed(1_000)).toBe(0);
    expect(notice.failed(1_001)).toBeNull();
    expect(notice.failed(1_000 + SAME_OUTAGE_MS - 1)).toBeNull();
  });

  it('counts a failure within the window of the last one as the same outage, however long it lasts', () => {
    const notice = new DatabaseOutageNotice();
    notice.failed(0);
    for (let at = 20_000; at <= 200_000; at += 20_000) expect(notice.failed(at)).toBeNull();
  });

  it('opens a new outage after a quiet window, telling how many failures went unsaid', () => {
    const notice = new DatabaseOutageNotice();
    notice.failed(0);
    notice.failed(10);
    notice.failed(20);
    expect(notice.failed(20 + SAME_OUTAGE_MS)).toBe(2);
    expect(notice.failed(20 + SAME_OUTAGE_MS + 1)).toBeNull();
  });
});
