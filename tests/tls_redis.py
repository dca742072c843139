"""A real ``redis-server`` on TLS only (Redis's own TLS), with a certificate authority the test
makes itself (``openssl``): the server's certificate names 127.0.0.1 and localhost, and clients
check it against the CA (``rediss://...?ssl_ca_certs=CA``)."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from tests.redis_server import RedisServer

__all__ = ["Authority", "make_authority", "tls_server"]


@dataclass(frozen=True)
class Authority:
    """The test's CA and the server's key pair it signed."""

    ca: Path
    cert: Path
    key: Path


def _openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=60)


def make_authority(directory: Path) -> Authority:
    """A self-signed CA (EC P-256, a day) and a server certificate it signed for 127.0.0.1."""
    directory.mkdir(parents=True, exist_ok=True)
    ca, ca_key = directory / "ca.crt", directory / "ca.key"
    cert, key, request = directory / "server.crt", directory / "server.key", directory / "s.csr"
    curve = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    _openssl("req", "-x509", *curve, "-keyout", str(ca_key), "-out", str(ca), "-days", "1",
             "-subj", "/CN=draughtsboard test CA")
    _openssl("req", *curve, "-keyout", str(key), "-out", str(request),
             "-subj", "/CN=127.0.0.1")
    extensions = directory / "server.ext"
    extensions.write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    _openssl("x509", "-req", "-in", str(request), "-CA", str(ca), "-CAkey", str(ca_key),
             "-CAcreateserial", "-out", str(cert), "-days", "1", "-extfile", str(extensions))
    key.chmod(0o600)
    return Authority(ca, cert, key)


def tls_server(directory: Path, authority: Authority, *more: str) -> RedisServer:
    """A redis-server (not started) that speaks TLS alone on its port (``more``: options such
    as ``--aclfile FILE``)."""
    server = RedisServer(directory, extra_args=())
    server.extra_args = ("--port", "0", "--tls-port", str(server.port),
                         "--tls-cert-file", str(authority.cert),
                         "--tls-key-file", str(authority.key),
                         "--tls-ca-cert-file", str(authority.ca), "--tls-auth-clients", "no",
                         *more)
    return server
