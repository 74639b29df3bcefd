/**
 * The one priority of everything a learner can make busy: the sandbox worker
 * threads that run their code, the link process that carries their
 * connections, and the redis-servers that answer them.
 *
 * Below the web server (nice 0), whose one event loop carries every browser:
 * at nice 10 (weight 110 against its 1024) twenty busy labs cannot take more
 * than a share of the cores from it. And the same for all three, because one
 * run is a chain through them (a client's command goes worker → link → node
 * → link → worker): with the workers ten levels below the nodes (15 against
 * 5), one lab's busy redis-servers starved another lab's clients, every run
 * of a grading slowed to a crawl under load, and a starved client let a
 * probe's moment slip by. CPU limits count CPU time, so a low priority only
 * slows a run on a busy machine, never fails it.
 */
export const LEARNER_NICE = 10;
