// The Cron Trigger, locally. In production Cloudflare runs the Worker's scheduled handler every
// minute (`crons = ["* * * * *"]` in wrangler.toml); wrangler's local server and Vite's dev server
// never do by themselves. `npm start` and `npm run dev` call this: it asks the local server to run
// the handler (`/cdn-cgi/handler/scheduled`, the address wrangler and the Cloudflare Vite plugin
// serve for it) every `intervalMs`, so a failed delivery is retried and retention runs without
// anyone's help, as they would in production. A run that cannot be reached (the server still
// starting, or stopping) is skipped; the next one tries again.

/**
 * Starts the ticker; `stop()` ends it (with the server it serves).
 * @param {string | (() => string | undefined)} origin the local server, or a function giving it once known
 * @param {number} intervalMs
 */
export function startCronTicker(origin, intervalMs) {
  let running = false
  const timer = setInterval(async () => {
    const base = typeof origin === 'function' ? origin() : origin
    if (!base || running) return
    running = true
    try {
      const answer = await fetch(new URL('/cdn-cgi/handler/scheduled', base), {
        signal: AbortSignal.timeout(Math.max(intervalMs, 30_000)),
      })
      await answer.body?.cancel()
    } catch {
      // Not serving yet, or stopping: the next tick tries again.
    } finally {
      running = false
    }
  }, intervalMs)
  timer.unref?.()
  return { stop: () => clearInterval(timer) }
}
