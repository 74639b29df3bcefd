/**
 * What the classroom modules share: the socket types of a classroom server,
 * the rooms a member is in, the requests that travel to a classroom's owner,
 * and `HubParts`, the hub's state lent to its parts (the store and the
 * socket.io server are only known once the hub has started).
 */
import type { Server, Socket } from 'socket.io';
import type { ClassroomLabCommand, ClassroomRole, DemoRef } from '@/lib/classroom';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import { LabOperationError, type Result } from '@/lib/result';
import type { Lab } from '../lab/lab';
import type { LabManager } from '../lab/lab-manager';
import type { LabView } from '../realtime/lab-view';
import type { ClassroomStore } from './classroom-store';
import { refusal } from '@/lib/refusal-words';

/** What a socket knows about its classroom (socket.data.classroom). */
export interface ClassroomMembership {
  code: string;
  role: ClassroomRole;
  learnerId: string | null;
  labId: string;
}

/** A request for the server that owns a classroom's lab. */
export type OwnerRequest =
  | { type: 'view'; code: string }
  | { type: 'command'; code: string; command: ClassroomLabCommand; input: unknown }
  | { type: 'demo'; code: string; ref: DemoRef; seed: number | undefined }
  | { type: 'end'; code: string };

/** Server-to-server events (through the Redis adapter). Servers that do not own `request.code` answer null. */
export interface ClassroomServerEvents {
  'classroom:forward': (request: OwnerRequest, ack: (result: Result<unknown> | null) => void) => void;
}

export interface ClassroomSocketData {
  labId?: string;
  /** The browser's anonymous identity (its signed cookie), set when the socket connects. */
  browser?: string;
  classroom?: ClassroomMembership;
}

export type HubServer = Server<ClientToServerEvents, ServerToClientEvents, ClassroomServerEvents, ClassroomSocketData>;
export type HubSocket = Socket<ClientToServerEvents, ServerToClientEvents, ClassroomServerEvents, ClassroomSocketData>;

/** What the realtime layer lends the hub: its labs, their publishing, and its lab commands. */
export interface ClassroomContext {
  labs: LabManager;
  publish(lab: Lab): void;
  runLabCommand(lab: Lab, command: ClassroomLabCommand, input: unknown): Promise<unknown>;
  /** What a member who joins now is sent of the lab (on the lab's owner). */
  view(lab: Lab): LabView;
}

/** The hub's state its parts read; each getter throws until the hub is attached. */
export interface HubParts {
  io(): HubServer;
  ioIfAttached(): HubServer | null;
  store(): ClassroomStore;
  context(): ClassroomContext;
  /** The server is shutting down: members dropping off tell nobody. */
  closing(): boolean;
}

export const classRoom = (code: string): string => `classroom:${code}`;
export const instructorsRoom = (code: string): string => `classroom:${code}:instructors`;
/** Every tab of one learner, on any server: the learner is away only when this room is empty. */
export const learnerRoom = (code: string, learnerId: string): string => `classroom:${code}:learner:${learnerId}`;

export function classroomGone(code: string): LabOperationError {
  return new LabOperationError('not-found', refusal('classroom.none', { code }));
}
