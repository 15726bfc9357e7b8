"""The event's own certificate authority, for serving the fair's network over TLS with no internet.

A fair's router has no public name, so no public authority can vouch for the cage's laptop. The
laptop makes an authority of its own on first use (`make serve`), each tablet trusts it once (the
trust page shows how), and the server's certificate, issued by it, names the laptop's addresses and
host name as they are when the server starts: a laptop given a new address by the router gets a
new certificate at its next start, and the tablets, which trust the authority, never notice.

The authority's key never leaves TLS_DIR (mode 0600); only its certificate is handed out.
"""

import datetime
import ipaddress
import os
import socket
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_CERT, CA_KEY = "ca.crt", "ca.key"
SERVER_CERT, SERVER_KEY = "server.crt", "server.key"
# The authority lasts the life of a laptop; the server's certificate stays under the 825 days
# Apple's devices accept for a certificate from an authority a person installed (397 here, the
# public rule, so no browser has a reason to refuse it).
CA_DAYS, SERVER_DAYS = 10 * 365, 397


@dataclass(frozen=True)
class ServerCertificate:
    cert_path: Path
    key_path: Path
    ca_path: Path
    names: tuple[str, ...]


def _write_private(path: Path, data: bytes) -> None:
    """A key file readable by its owner only, from its first byte."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(data)


def _key_bytes(key) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def ensure_authority(folder: Path, event_name: str = "") -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """The authority in `folder`, made there if it has none yet. Never replaced once made: every
    tablet that trusts it would have to be set up again."""
    folder.mkdir(parents=True, exist_ok=True)
    cert_path, key_path = folder / CA_CERT, folder / CA_KEY
    if cert_path.exists() and key_path.exists():
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
        return cert, key
    key = ec.generate_private_key(ec.SECP256R1())
    label = f"Fair gaming cage authority {event_name}".strip() if event_name else "Fair gaming cage authority"
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"{label} {socket.gethostname()}"[:64])])
    now = _now()
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    _write_private(key_path, _key_bytes(key))
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert, key


def laptop_names(extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The names a tablet may use for this laptop: its host name, its addresses on every network
    it is on, the loopback ones, and any given (ALLOWED_HOSTS, --name)."""
    names = ["localhost", socket.gethostname(), "127.0.0.1", "::1"]
    fqdn = socket.getfqdn()
    if fqdn and "." in fqdn:
        names.append(fqdn)
    names.extend(_addresses())
    names.extend(extra)
    seen, unique = set(), []
    for name in names:
        name = name.strip().lower()
        if name and name not in seen and "*" not in name and not name.startswith("."):
            seen.add(name)
            unique.append(name)
    return tuple(unique)


def _addresses() -> list[str]:
    """The laptop's own addresses, read from its host name and from the route it would take to a
    private network (no packet is sent: a UDP socket only picks its source address)."""
    found = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            found.append(info[4][0])
    except OSError:
        pass
    for probe in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))
                found.append(udp.getsockname()[0])
        except OSError:
            continue
    return [address.split("%")[0] for address in found if not address.startswith("0.")]


def _subject_names(names: tuple[str, ...]) -> list[x509.GeneralName]:
    general = []
    for name in names:
        try:
            general.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            general.append(x509.DNSName(name))
    return general


def issue_server_certificate(folder: Path, names: tuple[str, ...], event_name: str = "") -> ServerCertificate:
    """A new certificate for this start of the server, for `names`, issued by the authority."""
    ca_cert, ca_key = ensure_authority(folder, event_name)
    key = ec.generate_private_key(ec.SECP256R1())
    now = _now()
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0][:64])]))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=SERVER_DAYS))
        .add_extension(x509.SubjectAlternativeName(_subject_names(names)), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    key_path, cert_path = folder / SERVER_KEY, folder / SERVER_CERT
    _write_private(key_path, _key_bytes(key))
    # The chain a tablet is sent: the server's certificate, then the authority's.
    chain = cert.public_bytes(serialization.Encoding.PEM) + ca_cert.public_bytes(serialization.Encoding.PEM)
    cert_path.write_bytes(chain)
    return ServerCertificate(cert_path, key_path, folder / CA_CERT, names)


def authority_certificate(folder: Path) -> x509.Certificate | None:
    """The authority's certificate if one was made, for the trust page; None before the first
    `make serve`."""
    path = folder / CA_CERT
    if not path.exists():
        return None
    return x509.load_pem_x509_certificate(path.read_bytes())


def fingerprint(cert: x509.Certificate) -> str:
    """SHA-256 fingerprint, as a tablet's settings show it: pairs of hex digits with colons."""
    digest = cert.fingerprint(hashes.SHA256()).hex().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))
