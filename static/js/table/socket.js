// A WebSocket that reconnects with exponential backoff and tells the page about its state.

export class LiveSocket {
  /**
   * @param {string} url  ws:// or wss:// URL
   * @param {{onFrame: Function, onOpen?: Function, onStatus?: Function}} handlers
   */
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    this.attempt = 0;
    this.ws = null;
    this.closedByUs = false;
    this.queue = [];
    this.pingTimer = null;
    this.connect();
  }

  connect() {
    this.handlers.onStatus?.(this.attempt === 0 ? "connecting" : "reconnecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      const reconnected = this.attempt > 0;
      this.attempt = 0;
      this.handlers.onStatus?.("open");
      this.handlers.onOpen?.(reconnected);
      for (const frame of this.queue.splice(0)) this.send(frame);
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 15000);
    });
    ws.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame && typeof frame.type === "string") this.handlers.onFrame(frame);
    });
    ws.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      if (this.closedByUs) return;
      if (event.code === 4403 || event.code === 4404) {
        this.handlers.onStatus?.("refused", event.code);
        return;
      }
      this.handlers.onStatus?.("reconnecting");
      const delay = Math.min(30000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
      this.attempt += 1;
      setTimeout(() => this.connect(), delay);
    });
  }

  send(frame) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(frame));
      return true;
    }
    if (frame.type !== "ping") this.queue.push(frame);
    return false;
  }

  close() {
    this.closedByUs = true;
    clearInterval(this.pingTimer);
    this.ws?.close();
  }
}

/** ws(s)://host + path for the current page. */
export function wsUrl(path) {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}${path}`;
}
