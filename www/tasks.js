// Tasks of their own, for work in slices: on the page (player.js) and in the comparisons'
// worker (worker.js), between two of which the browser draws or reads its messages.

/** Runs `task` as a new task after the ones queued now (sooner than setTimeout's 4 ms). */
export const nextTask = (() => {
  const channel = new MessageChannel();
  const queue = [];
  channel.port1.onmessage = () => queue.shift()?.();
  return (task) => {
    queue.push(task);
    channel.port2.postMessage(null);
  };
})();
