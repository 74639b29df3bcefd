/**
 * Getting a request to a classroom's owner. A classroom's lab runs on the
 * server that created it; a request that arrives at another server is sent
 * to all servers with `serverSideEmit` (the Redis adapter's request and
 * response), and only the owner answers with a Result — so any server can
 * serve any member.
 */
import { LabOperationError, toFailure, type Result } from '@/lib/result';
import type { Coordination } from './coordination';
import { classroomGone, type HubParts, type HubServer, type OwnerRequest } from './hub-parts';
import type { ClassroomOwner } from './owner';
import { refusal } from '@/lib/refusal-words';

export class OwnerForwarding {
  constructor(
    private readonly parts: HubParts,
    private readonly owner: ClassroomOwner,
    private readonly coordination: () => Coordination | null,
  ) {}

  /** Answers the forwards of other servers for the classrooms this server owns. */
  listen(io: HubServer): void {
    io.on('classroom:forward', (request, ack) => {
      // Every server hears every forward; only the owner answers with a Result.
      if (!this.owner.has(request.code)) return ack(null);
      void this.owner.handle(request).then(ack);
    });
  }

  /** Runs `request` on the owner of `code` (here, or another server through the adapter) and unwraps its Result. */
  async toOwner(code: string, request: OwnerRequest): Promise<unknown> {
    const result = this.owner.has(code) ? await this.owner.handle(request) : await this.forward(code, request);
    if (!result.ok) throw new LabOperationError(result.error.code, result.error.words ? { message: result.error.message, words: result.error.words } : result.error.message, result.error.issues);
    return result.value;
  }

  private async forward(code: string, request: OwnerRequest): Promise<Result<unknown>> {
    const record = await this.parts.store().get(code);
    if (!record) throw classroomGone(code);
    if (!this.coordination()) throw classroomGone(code); // one server, and it does not own it: it ended
    const responses = await new Promise<(Result<unknown> | null)[]>((resolve) => {
      this.parts.io().serverSideEmit('classroom:forward', request, (_error: Error | null, answers: (Result<unknown> | null)[]) => resolve(answers ?? []));
    });
    const answer = responses.find((r) => r !== null);
    if (answer) return answer;
    return toFailure(new LabOperationError('not-found', refusal('classroom.notAnswering', { code })));
  }
}
