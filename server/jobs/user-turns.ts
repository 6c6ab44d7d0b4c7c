/**
 * The order jobs start in: one at a time, each user with a queue of their own in the order they
 * asked, the next job always from the user served least recently. One user's many or heavy jobs
 * hold another's for at most the job running when it was asked.
 */
export class UserTurns {
  /** Per user, the jobs asked and not yet started, in order. */
  private readonly queues = new Map<string, ((done: () => void) => void)[]>();
  /** Per user, the turn in which they were last served (a user never served has none). */
  private readonly servedAt = new Map<string, number>();
  private turn = 0;
  private running = false;

  /** Queues `start` for the user; it runs in their turn and calls `done` once its job has ended. */
  add(userId: string, start: (done: () => void) => void): void {
    const list = this.queues.get(userId);
    if (list) list.push(start);
    else this.queues.set(userId, [start]);
    this.next();
  }

  /** Takes every job not yet started, of every user (the runner is closing). */
  drain(): ((done: () => void) => void)[] {
    const all = [...this.queues.values()].flat();
    this.queues.clear();
    return all;
  }

  private next(): void {
    if (this.running) return;
    let chosen: string | undefined;
    let chosenTurn = Infinity;
    for (const userId of this.queues.keys()) {
      const turn = this.servedAt.get(userId) ?? -1;
      if (turn < chosenTurn) [chosen, chosenTurn] = [userId, turn];
    }
    if (chosen === undefined) return;
    const list = this.queues.get(chosen)!;
    const start = list.shift()!;
    if (list.length === 0) this.queues.delete(chosen);
    this.servedAt.set(chosen, ++this.turn);
    this.forgetIdleUsers();
    this.running = true;
    let ended = false;
    start(() => {
      if (ended) return;
      ended = true;
      this.running = false;
      this.next();
    });
  }

  /** Keeps the turns of users with nothing queued from growing without bound (they then count as never served). */
  private forgetIdleUsers(): void {
    if (this.servedAt.size < 10_000) return;
    for (const userId of this.servedAt.keys()) if (!this.queues.has(userId)) this.servedAt.delete(userId);
  }
}
