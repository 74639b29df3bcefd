// Wrong: quorum() ignores n and always returns 3.
// Right for this lab's 5 nodes only: with 7 nodes two clients can each collect
// 3 votes on disjoint nodes (3 + 3 <= 7) and both lock, and with 2 nodes no
// client can ever collect 3 votes.

// A strict majority of our five nodes.
function quorum(nodes: number): number {
  return 3;
}
