// Wrong: quorum(n) = n / 2, a float (2.5 for 5 nodes) rather than a number of votes.
// `votes >= 2.5` happens to need 3 of 5, but quorum(4) = 2 and quorum(6) = 3:
// on an even cluster split in half, two clients both collect the "quorum".

// Half of the nodes.
function quorum(nodes: number): number {
  return nodes / 2;
}
