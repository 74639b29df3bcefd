// Wrong: quorum(n) = Math.floor(n / 2), the "+ 1" forgotten: 2 votes out of 5.
// Two clients can each collect 2 votes on disjoint nodes: when the network
// splits the nodes 2/3 (split-brain-fixed), one client locks on the 2-node side
// and another on the 3-node side at the same time.

// Half of the nodes, rounded down.
function quorum(nodes: number): number {
  return Math.floor(nodes / 2);
}
