// Wrong: uses the client's id (lab.client) as the fencing token instead of the INCR counter.
// A token must grow with every grant; a client id does not: if Client 2 takes
// the lock first and pauses past its validity, Client 1 records with token 1,
// and the stale Client 2 then writes with token 2 and is accepted over it.

const token = lab.client;
