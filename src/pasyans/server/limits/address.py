"""The client's address, the key its requests count under.

The address is the peer's, or with ``trust_proxy`` the right-most ``X-Forwarded-For``
entry that is not itself a trusted proxy, and only when the peer is one of
``forwarded_allow_ips``. IPv6 addresses count per /64 (one subscriber's network).
"""

from __future__ import annotations

import ipaddress

from fastapi import Request

from pasyans.server.settings import Settings

Networks = list[ipaddress.IPv4Network | ipaddress.IPv6Network]


def _networks(spec: str) -> Networks | None:
    """``forwarded_allow_ips`` as networks; None means every peer ("*")."""
    out: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
    for part in spec.split(","):
        part = part.strip()
        if part == "*":
            return None
        if part:
            try:
                out.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                continue  # a host name or a socket path: never matches an address
    return out


def _trusted(host: str, networks: Networks | None) -> bool:
    if networks is None:
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(ip in n for n in networks)


def address_key(host: str) -> str:
    """The key one client address counts under: the IPv4 address, or the IPv6 /64."""
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return host[:64] or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def client_address(request: Request, settings: Settings) -> str:
    """The client's address key (see the module doc: proxy headers only from trusted
    proxies). Idempotent with uvicorn's own ``--proxy-headers``, which may already have
    put the forwarded address in the peer."""
    peer = request.client.host if request.client is not None else ""
    if settings.trust_proxy:
        networks = _networks(settings.forwarded_allow_ips)
        if _trusted(peer, networks):
            chain = [
                h.strip()
                for v in request.headers.getlist("x-forwarded-for")
                for h in v.split(",")
                if h.strip()
            ]
            for host in reversed(chain):
                if not _trusted(host, networks):
                    return address_key(host)
            if chain:
                return address_key(chain[0])
    return address_key(peer)
