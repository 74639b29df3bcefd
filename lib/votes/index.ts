/** Who voted for whom in a multi-node (Redlock) lock, read off a run's history: pure, no DOM. */
export * from './types';
export { clusterSize, deriveVotes, holdersAt, isMultiNodeLock, type VoteOptions } from './derive';
export * from './words';
