/** Random fault schedules (Jepsen's generator) and their shrinking, for lessons' "try random schedules". */
export { faultSpaceSchema, kindsFor, type FaultKind, type FaultKindName, type FaultSpace } from './space';
export { generateSchedule, type ScheduleTopology } from './generate';
export { faultCount, shrink, shrinkCandidates, type ShrinkBudget, type ShrinkProgress, type ShrinkResult } from './shrink';
export { describeSchedule, describeScheduleWords, scheduleDescription } from './describe';
export { describeSpace } from './space-words';
export { firedSteps } from './fired';
