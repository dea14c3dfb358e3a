// `expiresIn` (create and PUT .../expiry) is a Go duration from now. Go refuses anything past int64 nanoseconds,
// and Hive's controller would fail on such a delete-after, so the answer is 422 with Go's own message.
import { GO_MAX_DURATION, invalidDurationMessage, isCrdDuration, parseGoDuration } from '../../hive/duration.js';

/** Why `text` cannot be an expiry duration from now, or undefined when it can. */
export function expiresInProblem(text: string): string | undefined {
  const ms = parseGoDuration(text);
  if (ms === undefined)
    return `must be a Go duration such as 8h or 90m (no "d" unit, at most ${GO_MAX_DURATION}): ${invalidDurationMessage(text)}`;
  if (ms <= 0 || !isCrdDuration(text)) return 'must be a positive Go duration such as 8h or 90m, with no sign';
  return undefined;
}
