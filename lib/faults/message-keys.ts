/**
 * The catalogue key of each fault operation: an op's name ('node-kill') cannot be an ICU select option or a
 * message key as it is, so the recent events and the timeline both name an op through this one table.
 */
import type { FaultOp } from './catalogue';

export const FAULT_MESSAGE_KEYS = {
  'node-kill': 'nodeKill',
  'node-restart': 'nodeRestart',
  'node-pause': 'nodePause',
  'node-resume': 'nodeResume',
  'node-clock-jump': 'nodeClockJump',
  'link-cut': 'linkCut',
  'link-heal': 'linkHeal',
  'link-delay': 'linkDelay',
  'replication-hold': 'replicationHold',
  'replication-release': 'replicationRelease',
  'replication-delay': 'replicationDelay',
  failover: 'failover',
  'client-pause': 'clientPause',
  'client-resume': 'clientResume',
  'client-crash': 'clientCrash',
  'client-skew': 'clientSkew',
  'client-disconnect': 'clientDisconnect',
} as const satisfies Record<FaultOp, string>;
