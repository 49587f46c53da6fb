import { useEffect, useState } from 'react';

/**
 * The time as the server last said it (a list's or a ticket's `now`), running on in the browser:
 * the first render, on the server and at hydration alike, uses the server's instant, so both write
 * the same words ('due in 2 h'); then it moves on every `everyMs` by the time passed here since that
 * answer arrived. A new answer from the server starts it again from its own `now`.
 */
export function useNow(serverNow: string, everyMs = 60_000): Date {
  const [ticked, setTicked] = useState<{ from: string; passed: number } | null>(null);
  useEffect(() => {
    const received = Date.now();
    const timer = setInterval(() => setTicked({ from: serverNow, passed: Date.now() - received }), everyMs);
    return () => clearInterval(timer);
  }, [serverNow, everyMs]);
  const base = Date.parse(serverNow);
  return new Date(ticked?.from === serverNow ? base + ticked.passed : base);
}
