"""A scripted LSP session with gather-lsp-server over stdio.

Usage: lsp_session.py <gather-lsp-server>

Opens a document whose gather op has a bad axis and checks that the server
publishes the verifier's diagnostic, changes it to valid IR and checks that
the diagnostics are cleared, then shuts the server down. Every wait has a
timeout, and the server is killed if it outlives the session, so the test
can fail but never hang.
"""

import json
import queue
import subprocess
import sys
import threading

TIMEOUT = 20  # seconds per reply
URI = "file:///tmp/gather-lsp-test.mlir"

BAD = """func.func @f(%d: tensor<2x5xf32>, %i: tensor<3xi32>) -> tensor<2x3xf32> {
  %r = gather.gather %d[%i] {axis = 3 : i64} : (tensor<2x5xf32>, tensor<3xi32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
"""

GOOD = """func.func @f(%d: tensor<2x5xf32>, %i: tensor<2x3xi32>) -> tensor<2x3xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64, mode = #gather<mode fill>} : (tensor<2x5xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
"""


def send(proc, message):
    body = json.dumps(message).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def read_messages(stream, messages):
    """Reader thread: every message the server sends, then None at EOF."""
    while True:
        length = None
        while True:
            line = stream.readline()
            if not line:
                messages.put(None)
                return
            line = line.strip()
            if not line:
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        messages.put(json.loads(stream.read(length)))


def wait_for(messages, accept, what):
    while True:
        try:
            message = messages.get(timeout=TIMEOUT)
        except queue.Empty:
            sys.exit("timed out waiting for " + what)
        if message is None:
            sys.exit("the server exited while waiting for " + what)
        if accept(message):
            return message


def diagnostics_for(version):
    def accept(message):
        params = message.get("params", {})
        return (message.get("method") == "textDocument/publishDiagnostics"
                and params.get("uri") == URI
                and params.get("version") == version)
    return accept


def main():
    proc = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)
    watchdog = threading.Timer(6 * TIMEOUT, proc.kill)
    watchdog.start()
    messages = queue.Queue()
    threading.Thread(target=read_messages, args=(proc.stdout, messages),
                     daemon=True).start()
    try:
        send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                    "params": {"processId": None, "rootUri": None,
                               "capabilities": {}}})
        reply = wait_for(messages, lambda m: m.get("id") == 1, "initialize")
        print("initialized:", "capabilities" in reply.get("result", {}))
        send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})

        send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen",
                    "params": {"textDocument": {
                        "uri": URI, "languageId": "mlir", "version": 1,
                        "text": BAD}}})
        published = wait_for(messages, diagnostics_for(1), "diagnostics")
        for diagnostic in published["params"]["diagnostics"]:
            start = diagnostic["range"]["start"]
            print("bad: line %d: %s" % (start["line"], diagnostic["message"]))

        send(proc, {"jsonrpc": "2.0", "method": "textDocument/didChange",
                    "params": {"textDocument": {"uri": URI, "version": 2},
                               "contentChanges": [{"text": GOOD}]}})
        published = wait_for(messages, diagnostics_for(2), "diagnostics")
        print("good: %d diagnostics" % len(published["params"]["diagnostics"]))

        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        wait_for(messages, lambda m: m.get("id") == 2, "shutdown")
        send(proc, {"jsonrpc": "2.0", "method": "exit"})
        print("exit code:", proc.wait(timeout=TIMEOUT))
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()


if __name__ == "__main__":
    main()
