/** What the product knows about a diagnosis besides its sentence: each diagnosis-*.ts file exports one. */
export interface DiagnosisSpec {
  kind: string;
  /**
   * How a graded run takes it (server/grading/judge.ts):
   * - `fatal`: a bug in the code whatever the timing (a lock key left without a TTL, a check-then-set, a Redlock
   *   grant without a majority): a graded run that shows one fails even when, this time, nobody else was hurt;
   * - `mechanism`: says how a violation came about, from the run's own events: the failure's sentence when its
   *   check is violated;
   * - `explains`: only explains a verdict (timing: a pause, a slow section; a busy machine must never fail a right
   *   answer). A release that deleted another's lock is one: lesson 1's given release is a plain DEL on purpose
   *   (lesson 2's subject), and lesson 2's probes catch it in the learner's own.
   */
  grades: 'fatal' | 'mechanism' | 'explains';
}
