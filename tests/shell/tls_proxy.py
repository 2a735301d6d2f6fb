#!/usr/bin/env python3
"""A TLS-terminating TCP proxy for tests: TLS clients in front, a plaintext server behind.

    tls_proxy.py --cert SERVER.pem --key SERVER.key --backend HOST:PORT
                 [--client-ca CA.pem] [--ready-file FILE]

Listens on 127.0.0.1 on a free port (loopback only), accepts TLS 1.2 or newer with the given
certificate and key, and pipes the decrypted bytes of each connection to a new TCP connection to
the backend (and back). With --client-ca, a client must present a certificate signed by that CA
(mutual TLS); the handshake fails otherwise. When listening it prints one line,

    tls_proxy listening on 127.0.0.1:PORT

to standard output (and to --ready-file when given), then serves until SIGTERM or SIGINT.
Failed handshakes are reported on standard error, one line each.

One thread per connection (blocking sockets). Used by
tests/shell/cli_tls_auth_test.sh to test the C++ driver's and `cql`'s TLS against a plaintext
cqld (whose own TLS is not needed for that). Standard library only (/usr/bin/python3).
"""

import argparse
import select
import signal
import socket
import ssl
import sys
import threading


def relay(client, server):
    """Copies bytes both ways until either side closes. One thread per connection, so the TLS
    object is never used from two threads at once (OpenSSL does not allow that)."""
    try:
        while True:
            # Bytes OpenSSL has already decrypted do not make the socket readable.
            readable = [client] if client.pending() else select.select([client, server], [], [])[0]
            if client in readable:
                data = client.recv(65536)
                if not data:
                    return
                server.sendall(data)
            if server in readable:
                data = server.recv(65536)
                if not data:
                    return
                client.sendall(data)
    except OSError:  # ssl.SSLError included
        return


def handle(connection, context, backend):
    # A blocking handshake: a refused client sees the alert (e.g. "certificate required")
    # before the connection closes, as with a real TLS server.
    try:
        client = context.wrap_socket(connection, server_side=True)
    except OSError as error:  # ssl.SSLError included
        print("tls_proxy: handshake failed: %s" % error, file=sys.stderr, flush=True)
        connection.close()
        return
    try:
        server = socket.create_connection(backend)
    except OSError as error:
        print("tls_proxy: backend %s:%d: %s" % (backend + (error,)), file=sys.stderr, flush=True)
        client.close()
        return
    relay(client, server)
    client.close()
    server.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--backend", required=True, help="HOST:PORT of the plaintext server")
    parser.add_argument("--client-ca", help="require client certificates signed by this CA")
    parser.add_argument("--ready-file")
    args = parser.parse_args()

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(args.cert, args.key)
    if args.client_ca:
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(args.client_ca)
    host, port = args.backend.rsplit(":", 1)
    backend = (host, int(port))

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    line = "tls_proxy listening on 127.0.0.1:%d" % listener.getsockname()[1]
    print(line, flush=True)
    if args.ready_file:
        with open(args.ready_file, "w") as ready:
            ready.write(line + "\n")

    def stop(number, frame):
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while True:
        connection, _ = listener.accept()
        connection.settimeout(None)
        threading.Thread(target=handle, args=(connection, context, backend), daemon=True).start()


if __name__ == "__main__":
    main()
