/**
 * The permission prompt's state (the pending request, the highlighted option, the reason being typed, how far the
 * command or diff is scrolled) and the REPL's PermissionBroker over it. While it waits, the turn's clock stands still (`since`); `onResume` gets the
 * paused milliseconds when it is answered.
 */
import { useCallback, useMemo } from 'react';
import type { PermissionBroker, UserDecision } from '../driver/permission-broker.js';
import type { ApprovalRequest } from '../tools/registry/tool-context.js';
import type { InputState } from './input-state.js';
import { useLatestState } from './use-raw-keys.js';

export interface PendingPermission {
  request: ApprovalRequest;
  resolve: (decision: UserDecision) => void;
  selected: number;
  /** The reason being typed after option 3; null while choosing. */
  reason: InputState | null;
  /** Option 4 ("always allow") was chosen and waits for its confirmation key `y`. */
  confirmAlways?: boolean;
  /** First shown line of the command or diff. */
  scroll: number;
  /** When the prompt appeared. */
  since: number;
}

/** Esc or "No": denied, and the turn ends so the user can say what to do instead. */
export const DECLINE: UserDecision = {
  approved: false,
  reason: 'The user declined this call and stopped the turn.',
  endTurn: true,
};

export function usePermission({ now, onResume }: { now: () => number; onResume: (pausedMs: number) => void }) {
  const [permissionRef, setPermission] = useLatestState<PendingPermission | null>(() => null);

  const approver = useCallback(
    (request: ApprovalRequest) =>
      new Promise<UserDecision>((resolve) => {
        setPermission({ request, resolve, selected: 0, reason: null, scroll: 0, since: now() });
      }),
    [now, setPermission],
  );

  const answerPermission = useCallback(
    (decision: UserDecision) => {
      const pending = permissionRef.current;
      if (!pending) return;
      setPermission(null);
      onResume(Math.max(0, now() - pending.since));
      pending.resolve(decision);
    },
    [now, onResume, permissionRef, setPermission],
  );

  /** The REPL's PermissionBroker: the dialog asks, and `cancel` answers an open question "no". */
  const broker = useMemo<PermissionBroker>(
    () => ({ ask: approver, cancel: (reason) => answerPermission({ approved: false, reason }) }),
    [answerPermission, approver],
  );

  return { permissionRef, setPermission, answerPermission, approver, broker };
}
