#!/usr/bin/env python3
"""A TCP proxy for the IMAP end-to-end tests that cuts connections mid-stream.

Usage: cutting-proxy.py PORT_FILE TARGET_PORT CUT_AFTER_BYTES MODE
Listens on a free loopback port (written to PORT_FILE) and forwards to TARGET_PORT. After
CUT_AFTER_BYTES bytes from the server, the connection is closed both ways (a reset, as when a
network drops). MODE "first" cuts only the first connection; "all" cuts every one.
"""
import socket
import struct
import sys
import threading


def pipe(source, sink, budget, cut):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            if budget is not None:
                if budget[0] <= len(data):
                    sink.sendall(data[:budget[0]])
                    cut()
                    return
                budget[0] -= len(data)
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def main():
    port_file, target, limit, mode = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(listener.getsockname()[1]))
    import os
    os.rename(port_file + ".tmp", port_file)
    count = 0
    while True:
        client, _ = listener.accept()
        count += 1
        server = socket.create_connection(("127.0.0.1", target))
        cutting = mode == "all" or count == 1

        def cut(client=client, server=server):
            # shutdown() acts at once (close() alone waits for the other thread's recv to
            # return); SO_LINGER 0 makes the close a reset, as a dropped network looks.
            for s in (client, server):
                try:
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    s.shutdown(socket.SHUT_RDWR)
                    s.close()
                except OSError:
                    pass
        threading.Thread(target=pipe, args=(client, server, None, cut), daemon=True).start()
        threading.Thread(target=pipe, args=(server, client, [limit] if cutting else None, cut), daemon=True).start()


if __name__ == "__main__":
    main()
