import { markdownTable, formatNumber as n } from '../report/markdown-table';
import { GUARD_FLOORS, type GuardFloor, type GuardResults } from './guard-floors';

/** One figure of a run against its floor; `value` null when the run has no such figure (a failure too). */
export interface FloorVerdict {
  floor: GuardFloor;
  value: number | null;
  passed: boolean;
}

/** Every floor's figure in `results` (a parsed results file), checked against it. */
export function checkFloors(results: GuardResults, floors: readonly GuardFloor[] = GUARD_FLOORS): FloorVerdict[] {
  return floors.map((floor) => {
    const read = floor.read(results);
    const value = typeof read === 'number' && Number.isFinite(read) ? read : null;
    return { floor, value, passed: value !== null && value >= floor.floor };
  });
}

/** The verdicts as a table: figure, measured, floor, goal, verdict. */
export function renderVerdicts(verdicts: readonly FloorVerdict[]): string {
  return markdownTable(
    ['figure', 'measured', 'floor', 'goal', 'verdict'],
    verdicts.map(({ floor, value, passed }) => [
      floor.figure,
      value === null ? 'missing' : `${n(value, 2)}×`,
      `${n(floor.floor, 2)}×`,
      `${n(floor.goal, 2)}×`,
      passed ? 'pass' : '**FAIL**',
    ]),
    ['l', 'r', 'r', 'r', 'l'],
  );
}

/** One line per failed figure, naming it, its value, its floor and its goal; empty when every figure passed. */
export function failureMessages(verdicts: readonly FloorVerdict[]): string[] {
  return verdicts
    .filter((verdict) => !verdict.passed)
    .map(({ floor, value }) =>
      value === null
        ? `${floor.figure}: missing from the results (not measured), floor ${n(floor.floor, 2)}×, goal ${n(floor.goal, 2)}×`
        : `${floor.figure}: ${n(value, 2)}× is below its floor ${n(floor.floor, 2)}× (goal ${n(floor.goal, 2)}×): ${floor.why}`,
    );
}
