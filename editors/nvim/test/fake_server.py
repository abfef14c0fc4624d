#!/usr/bin/env python3
"""A stand-in for impactd that speaks just enough LSP to exercise the editor clients.

On didOpen it publishes one diagnostic (source "impactd") at the start of line 0; hover answers markdown;
code actions answer one action with command impact.showMirror; impact.run answers
{"text", "report"} echoing its arguments; impact.showMirror sends window/showDocument to the
client and answers with the client's reply. Every message it receives is appended to the file
named by FAKE_IMPACTD_LOG, when set.
"""
import json
import os
import sys

LOG = os.environ.get("FAKE_IMPACTD_LOG")
stdin = sys.stdin.buffer
stdout = sys.stdout.buffer
next_id = 1000


def log(message):
    if LOG:
        with open(LOG, "a") as f:
            f.write(json.dumps(message) + "\n")


def read():
    length = None
    while True:
        line = stdin.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(stdin.read(length))


def send(message):
    body = json.dumps(message).encode()
    stdout.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stdout.flush()


def request(method, params):
    """Send a request to the client and wait for its response (answering nothing else meanwhile)."""
    global next_id
    next_id += 1
    send({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params})
    while True:
        message = read()
        if message is None:
            return None
        log(message)
        if message.get("id") == next_id and "method" not in message:
            return message.get("result")


RANGE = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}


def handle(message):
    method = message.get("method")
    params = message.get("params") or {}
    if method == "initialize":
        return {
            "capabilities": {
                "textDocumentSync": 1,
                "hoverProvider": True,
                "codeActionProvider": True,
                "executeCommandProvider": {"commands": ["impact.run", "impact.showMirror"]},
            },
            "serverInfo": {"name": "fake-impactd"},
        }
    if method == "textDocument/didOpen":
        uri = params["textDocument"]["uri"]
        send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": {
            "uri": uri,
            "diagnostics": [{"range": RANGE, "severity": 1, "source": "impactd",
                             "message": "copy has 8 arguments, builder has 11"}],
        }})
        return None
    if method == "textDocument/hover":
        return {"contents": {"kind": "markdown", "value": "**kernargs** fake hover\n\nmore"}}
    if method == "textDocument/codeAction":
        uri = params["textDocument"]["uri"]
        return [{"title": "Show the builder", "kind": "quickfix",
                 "command": {"title": "Show the builder", "command": "impact.showMirror",
                             "arguments": [{"uri": uri, "range": RANGE}]}}]
    if method == "workspace/executeCommand":
        args = params.get("arguments") or []
        if params.get("command") == "impact.run":
            return {"text": "fake report\nargs " + json.dumps(args) + "\nRuntime impact: N/A\n",
                    "report": {"rows": []}}
        if params.get("command") == "impact.showMirror":
            target = args[0]
            reply = request("window/showDocument",
                            {"uri": target["uri"], "takeFocus": True, "selection": target["range"]})
            return {"showDocument": reply}
        raise ValueError("unknown command")
    if method == "shutdown":
        return None
    return None


def main():
    while True:
        message = read()
        if message is None:
            return
        log(message)
        if message.get("method") == "exit":
            return
        if "id" in message and "method" in message:
            try:
                send({"jsonrpc": "2.0", "id": message["id"], "result": handle(message)})
            except Exception as error:  # noqa: BLE001 - report any failure to the client
                send({"jsonrpc": "2.0", "id": message["id"],
                      "error": {"code": -32603, "message": str(error)}})
        else:
            handle(message)


if __name__ == "__main__":
    main()
