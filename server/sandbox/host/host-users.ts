/**
 * Who the sandbox hosts run as. Learner code runs in them: should it ever
 * break out of QuickJS, it must hold no right over the server, over the link
 * process (65534), over any lab's nodes (their uids, lab-users.ts) — nor over
 * another host's runs. So under a root server each host takes a uid of its
 * own, host i as LOCKLAB_SANDBOX_UID_BASE + i (a number is all the kernel
 * needs: no passwd entry). A server that is not root, or without setpriv,
 * runs them as itself, like the link process.
 */
import { LAB_UID_BASE, LAB_UID_COUNT, uidFromEnv } from '../../cluster/lab-users';
import { helperExec, UNPRIVILEGED_USER } from '../../unprivileged/spawn-unprivileged';

/** Below the labs' range by default (2,000,000 up), above what distributions hand out. */
export const SANDBOX_UID_BASE = uidFromEnv('LOCKLAB_SANDBOX_UID_BASE', 1_999_000);

/** The uid host `index` of `hosts` runs as, checked against every other user of the server's. */
export function hostUid(index: number, hosts: number): number {
  const uid = SANDBOX_UID_BASE + index;
  const last = SANDBOX_UID_BASE + hosts - 1;
  const overlapsLabs = SANDBOX_UID_BASE < LAB_UID_BASE + LAB_UID_COUNT && last >= LAB_UID_BASE;
  if (overlapsLabs || (UNPRIVILEGED_USER.uid >= SANDBOX_UID_BASE && UNPRIVILEGED_USER.uid <= last)) {
    throw new Error(
      `LOCKLAB_SANDBOX_UID_BASE (${SANDBOX_UID_BASE}) gives the sandbox hosts uids ${SANDBOX_UID_BASE}–${last}, which overlap the labs' ` +
        `(${LAB_UID_BASE}–${LAB_UID_BASE + LAB_UID_COUNT - 1}) or the link process's (${UNPRIVILEGED_USER.uid})`,
    );
  }
  return uid;
}

/** How host `index` is started: through nice and setpriv when they are there, as its own uid under a root server. */
export function hostExec(index: number, hosts: number): ReturnType<typeof helperExec> {
  const exec = helperExec(null);
  if (!exec) return null;
  const uid = hostUid(index, hosts);
  return process.getuid?.() === 0 ? { ...exec, user: { uid, gid: uid } } : exec;
}
