/**
 * socket.io for the lab server: each browser message is validated, routed
 * to the lab the socket has joined, and answered with a Result. A bad
 * message gets an error back and changes nothing; an exception in a handler
 * never reaches socket.io (which would drop the socket) or the process.
 */
import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import type { LabManager } from '../lab/lab-manager';
import type { RunAdmission } from '../runs/run-admission';
import type { SandboxPool } from '../sandbox';
import type { ClassroomHub, ClassroomServerEvents, ClassroomSocketData } from '../classroom/classroom-hub';
import { admitBrowsers } from './browser-admission';
import { runClassroomLabCommand } from './lab-commands';
import { originAllowed } from './origin';
import { registerOwnLab } from './own-lab-session';
import { RealtimeLabs } from './realtime-labs';
import type { BrowserIdentities } from './browser-identity';
import { refuse } from '../ops/refusals';

export type LabSocket = Socket<ClientToServerEvents, ServerToClientEvents, ClassroomServerEvents, ClassroomSocketData>;
export type LabServer = Server<ClientToServerEvents, ServerToClientEvents, ClassroomServerEvents, ClassroomSocketData>;

export interface RealtimeOptions {
  allowedOrigins: string[];
  sandbox: SandboxPool | null;
  /** The server's run budget (memory, concurrency, a fair queue); runs start at once without it. */
  admission?: RunAdmission | null;
  classrooms?: ClassroomHub;
  /** Commands on a socket's own lab (joins, faults, runs): a burst, then this many a second. Unlimited if absent. */
  labActionLimit?: { burst: number; perSecond: number };
  /** The same, per lab: one allowance shared by every socket on the lab, so opening more tabs buys nothing. */
  perLabLimit?: { burst: number; perSecond: number };
  /** A socket refused more than `refusals` commands within `windowMs` is disconnected. */
  flood?: { refusals: number; windowMs: number };
  /** Browser identities (signed cookie). Absent: every socket counts as a browser of its own. */
  identities?: BrowserIdentities;
  /** Own labs per browser (classroom labs are not counted). Unlimited if absent. */
  labsPerBrowser?: number;
  /** Sockets open at once per browser. Unlimited if absent. */
  socketsPerBrowser?: number;
  /** Spare labs "Check my solution" may borrow beside the learner's own, when the server has room (0: none). */
  gradingSpareLabs?: number;
}

/**
 * The socket layer: a handshake gate (browser-admission.ts), the labs' side
 * (realtime-labs.ts), each socket's own lab (own-lab-session.ts) and the
 * classrooms (classroom-hub.ts).
 */
export function attachRealtime(httpServer: HttpServer, labs: LabManager, options: RealtimeOptions): LabServer {
  const io: LabServer = new Server(httpServer, {
    allowRequest: (req, callback) => {
      if (!originAllowed(req, options.allowedOrigins)) {
        refuse('origin', { detail: { origin: String(req.headers.origin) } }, 'A page of another site may not open a lab socket');
        return callback('origin not allowed', false);
      }
      callback(null, true);
    },
    // Learner code and snapshots are small; a cap stops a hostile client from sending megabytes.
    maxHttpBufferSize: 1_000_000,
  });
  admitBrowsers(io, options.identities, options.socketsPerBrowser);
  const realtime = new RealtimeLabs(io, labs, options);
  const classrooms = options.classrooms;
  classrooms?.attach(io, {
    labs,
    publish: (lab) => realtime.publish(lab),
    runLabCommand: (lab, command, input) => runClassroomLabCommand(command, realtime.commandContext(lab), input),
    view: (lab) => realtime.view(lab),
  });
  io.on('connection', (raw) => {
    const socket = raw as LabSocket;
    registerOwnLab(io, socket, realtime, options);
    classrooms?.register(socket);
  });
  return io;
}
