// What the status line of a running turn says: how long it runs, the
// agent's own latest word, and whether it has gone quiet.
import { isRunning, type ChatState } from './chatReducer';

/** Silence after which the user is told and offered Stop. */
export const stallAfterMs = 30_000;

/** m:ss (h:mm:ss past an hour). */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/**
 * Whether to show "no answer for 30 s": the turn runs, nothing arrived for
 * stallAfterMs since the last event or since the user chose to keep
 * waiting, and the agent is not waiting on the user's permission answer.
 */
export function isStalled(s: Pick<ChatState, 'phase' | 'lastEventAt' | 'pending'>, now: number, keptWaitingAt = 0, after = stallAfterMs): boolean {
  if (!isRunning(s) || s.pending.length > 0 || !s.lastEventAt) return false;
  return now - Math.max(s.lastEventAt, keptWaitingAt) >= after;
}
