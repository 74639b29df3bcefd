/** Fault → event latency as a tab sees it: kill a node, time its `nodes:update` saying down, restart it. */
import type { Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';

export async function faultLatencies(socket: Socket<ServerToClientEvents, ClientToServerEvents>, samples: number, pauseMs = 0): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < samples; i++) {
    const node = (i % 5) + 1;
    const seen = new Promise<number>((resolve) => {
      const onUpdate = (diff: { nodes: { id: number; state: string }[] }) => {
        if (!diff.nodes.some((n) => n.id === node && n.state === 'down')) return;
        socket.off('nodes:update', onUpdate);
        resolve(performance.now());
      };
      socket.on('nodes:update', onUpdate);
    });
    const sent = performance.now();
    socket.emit('node:kill', { node }, () => undefined);
    latencies.push((await seen) - sent);
    const back = await socket.emitWithAck('node:restart', { node });
    if (!back.ok) throw new Error(back.error.message);
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return latencies;
}
