import type { Schedule } from '../api/types';
import { typedDay } from '../days';
import { buenosAiresDay, formatSendingMoment } from '../format';
import { useI18n } from '../i18n/i18n';

/**
 * When a scheduled transfer is sent (`lun 28/12/2026 09:00`), and, when the calendar moved it, the day it asked
 * for: a holiday or a weekend moved by the non-business-day rule.
 */
export function ScheduleText({ schedule }: { schedule: Schedule }) {
  const { t, lang } = useI18n();
  const { requested } = schedule;
  const moved = 'executeOn' in requested && requested.executeOn !== buenosAiresDay(schedule.executeAt);
  return (
    <span class="schedule">
      <time dateTime={schedule.executeAt} class="nowrap">
        {formatSendingMoment(schedule.executeAt, lang)}
      </time>
      {moved && (
        <small class="muted" data-testid="schedule-moved">
          {t('scheduled.movedFrom', { day: typedDay(requested.executeOn) })}
        </small>
      )}
    </span>
  );
}
