/**
 * The priority of what carries a learner's commands: the link process and the
 * redis-servers that answer them. (The sandbox hosts that run their code are
 * one step further down: SANDBOX_HOST_NICE below.)
 *
 * Below the web server (nice 0), whose one event loop carries every browser.
 * The same for all three, because one run is a chain through them (a
 * client's command goes worker → link → node → link → worker): with the
 * workers ten levels below the nodes (15 against 5), one lab's busy
 * redis-servers starved another lab's clients, and a starved client let a
 * probe's moment slip by. Nice 5 (weight 335 against the server's 1024), not
 * 10: at 10 the test suite's graders, beside browsers and other labs at nice
 * 0, were kept waiting so often that three checks in a row of a right answer
 * came back "too busy to tell". CPU limits count CPU time, so a low priority
 * only slows a run on a busy machine, never fails it.
 */
export const LEARNER_NICE = 5;

/**
 * The sandbox host processes (server/sandbox/host/), where learners' QuickJS
 * threads run: further below the server than the nodes and the link process.
 * Their threads took ~90 % of a core and kept the web server's main thread
 * waiting 866 ms a second (issue 29); a learner's busy loop is the one thing
 * here that can be busy without end, and a run's commands still reach nodes
 * and links that answer at nice 5. Five levels apart (weights 110 against
 * 335), not ten: at 15 one lab's busy nodes starved another lab's clients
 * (above). Watch the grader's "too busy to tell" (grading/disturbance.ts),
 * which counts these threads' waits too.
 */
export const SANDBOX_HOST_NICE = 10;
