import type { EventChannel, EventContract } from '../shared/ipc';

/** Sends an event to every connected renderer (Electron windows or serve-mode sockets). */
export type EmitEvent = <C extends EventChannel>(channel: C, payload: EventContract[C]) => void;

/** A fan-out of events to any number of carriers; each returns an unsubscribe. */
export class EventHub {
  private readonly sinks = new Set<(channel: EventChannel, payload: unknown) => void>();

  readonly emit: EmitEvent = (channel, payload) => {
    for (const sink of this.sinks) sink(channel, payload);
  };

  connect(sink: (channel: EventChannel, payload: unknown) => void): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }
}
