/**
 * The edge between a browser's message and the server's code. Each command
 * is registered with a handler typed by the protocol: its input arrives
 * parsed (lib/commands.ts), its return value is the ack's value type, and
 * whatever it throws becomes the ack's error. A message without an ack gets
 * `lab:error`; nothing a browser sends can crash the process or drop the
 * socket.
 */
import type { Socket } from 'socket.io';
import { parseCommand, type CommandInput, type CommandValue } from '@/lib/commands';
import type { ClientEventName, ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import { LabOperationError, ok, toFailure, type Result } from '@/lib/result';

export type CommandHandler<E extends ClientEventName> = (input: CommandInput<E>) => Promise<CommandValue<E>>;

/** Registers a command's handler on a socket (see `commandRegistrar`). */
export type OnCommand = <E extends ClientEventName>(event: E, handler: CommandHandler<E>) => void;

/** Runs before the input is parsed, and may refuse by throwing (a rate limit: a refused message costs no parsing). */
export type Gate = (event: ClientEventName) => void;

type AnySocket = Pick<Socket<ClientToServerEvents, ServerToClientEvents>, 'emit'>;

/**
 * socket.io's typings cannot follow an event name chosen by a type parameter
 * to its listener's arguments; the listener below reads them as the wire
 * delivers them (input, then the ack) and checks the ack is a function.
 */
interface LooseListener {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

export function commandRegistrar(socket: AnySocket & { on: Socket['on'] }, gate?: Gate): OnCommand {
  return <E extends ClientEventName>(event: E, handler: CommandHandler<E>) => {
    (socket as unknown as LooseListener).on(event, (...args: unknown[]) => {
      const ack = args.at(-1);
      const raw = args.length > 1 ? args[0] : undefined;
      if (typeof ack !== 'function') {
        socket.emit('lab:error', { code: 'invalid-input', message: `"${event}" needs an acknowledgement callback` });
        return;
      }
      const answer = ack as (result: Result<CommandValue<E>>) => void;
      void (async () => {
        gate?.(event);
        return ok(await handler(parseCommand(event, raw)));
      })()
        .catch((error: unknown): Result<CommandValue<E>> => {
          if (!(error instanceof LabOperationError)) console.error(`[realtime] ${event} failed:`, error);
          return toFailure(error);
        })
        .then(answer);
    });
  };
}
