// Wrong: quorum(n) = Math.ceil(n / 2), "half, rounded up".
// For 5 nodes it happens to give 3, but for an even n it is exactly half:
// quorum(4) = 2 and quorum(6) = 3, so a network split into two halves lets two
// clients each collect a "quorum" at once (2 + 2 of 4 nodes).

// Half of the nodes, rounded up.
function quorum(nodes: number): number {
  return Math.ceil(nodes / 2);
}
