/**
 * Runs `fire` once the lab clock reads `due`, never before. Timers count whole milliseconds on a clock of their
 * own, so one can fire a little before a sub-millisecond lab clock says it is time: it is then armed again for
 * what is left. Used by the scenario runner and by the sandbox's armed faults.
 */
export function atLabTime(due: number, now: () => number, fire: () => void): { cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const arm = () => {
    timer = setTimeout(() => {
      timer = null;
      if (now() < due) arm();
      else fire();
    }, Math.max(0, Math.ceil(due - now())));
  };
  arm();
  return {
    cancel: () => {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
