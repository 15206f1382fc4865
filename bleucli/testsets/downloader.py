"""Fetch one registry download to its final path, verified, or not at all.

What sacreBLEU's users hit (spec section 5, reliability.md section 2b) and what
this module does instead:

* no timeout, hangs forever -> (connect, read) timeouts *and* an overall deadline
  (requests' read timeout is per socket read, so a slow drip needs the deadline);
* one failure = traceback -> bounded retries with exponential backoff on
  connection errors, bodies cut mid-stream, 429 (honouring Retry-After) and 5xx;
  never on 404 or other 4xx. The policy is urllib3's ``Retry`` (which statuses,
  the attempt count, the backoff, Retry-After in seconds or as an HTTP date),
  driven by the one loop of :func:`fetch` rather than mounted on the requests
  adapter: a mounted ``Retry`` only sees failures up to the response headers,
  and half of those retried here (a body cut, reset or stalled, resumed with
  ``Range``) come after them, so it would split one budget and one deadline
  into two layers;
* a truncated file kept forever -> the body streams into a process-unique temp
  file, is hashed while written, verified, fsynced and only then renamed;
* ``Content-Encoding: gzip`` silently decoded -> ``Accept-Encoding: identity``
  and the *raw* bytes are hashed;
* resume: ``Range`` + ``If-Range`` only when the server advertises byte ranges
  and a validator; a 200 answer restarts from zero, a 206 at the wrong offset
  too (the Content-Range start is checked);
* only http/https, and redirects are followed by hand so that a hop to
  ``file://``, ``ftp://`` or from https down to http is refused;
* a size cap (the registry's size, else a global cap).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import logging
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlparse

from ..errors import CacheError, DownloadError, IntegrityError, RedirectError
from .cache import fsync_dir, temp_path
from .crash import crash_point
from .registry import Download

#: ``progress(label, bytes_done, bytes_total_or_None)``; supplied by the CLI.
ProgressCallback = Callable[[str, int, "int | None"], None]

_CHUNK = 1 << 16


@dataclass(frozen=True)
class DownloadPolicy:
    """Timeouts, retries and caps for downloads (seconds and bytes)."""

    connect_timeout: float = 15.0
    read_timeout: float = 60.0
    deadline: float = 3600.0
    retries: int = 5
    backoff: float = 1.0
    backoff_max: float = 30.0
    max_size: int = 4 << 30
    max_redirects: int = 5

    @classmethod
    def from_env(cls) -> DownloadPolicy:
        """Defaults overridden by ``BLEUCLI_HTTP_TIMEOUT`` ("connect,read" or one number),
        ``BLEUCLI_DOWNLOAD_DEADLINE``, ``BLEUCLI_DOWNLOAD_RETRIES``, ``BLEUCLI_RETRY_BACKOFF``
        and ``BLEUCLI_MAX_DOWNLOAD_BYTES`` (used by the tests and on slow links)."""
        kwargs: dict[str, Any] = {}
        env = os.environ
        try:
            if env.get("BLEUCLI_HTTP_TIMEOUT"):
                parts = [float(p) for p in env["BLEUCLI_HTTP_TIMEOUT"].split(",")]
                kwargs["connect_timeout"], kwargs["read_timeout"] = parts[0], parts[-1]
            if env.get("BLEUCLI_DOWNLOAD_DEADLINE"):
                kwargs["deadline"] = float(env["BLEUCLI_DOWNLOAD_DEADLINE"])
            if env.get("BLEUCLI_DOWNLOAD_RETRIES"):
                kwargs["retries"] = int(env["BLEUCLI_DOWNLOAD_RETRIES"])
            if env.get("BLEUCLI_RETRY_BACKOFF"):
                kwargs["backoff"] = float(env["BLEUCLI_RETRY_BACKOFF"])
            if env.get("BLEUCLI_MAX_DOWNLOAD_BYTES"):
                kwargs["max_size"] = int(env["BLEUCLI_MAX_DOWNLOAD_BYTES"])
        except ValueError as exc:
            from ..errors import OptionError

            raise OptionError(f"invalid download setting in the environment: {exc}") from None
        return cls(**kwargs)


#: Where the downloader says what it is doing while it waits (retries); the CLI shows it on stderr,
#: a TTY or not, so a CI log does not stay silent for the length of the backoff.
log = logging.getLogger("bleucli.download")


#: Statuses retried (with the connection failures and cut bodies): too many requests, server errors.
RETRY_STATUSES = frozenset([429, *range(500, 600)])


class _Retry(Exception):
    """An attempt failed in a way worth retrying; ``restart`` drops the partial body.

    ``response`` is urllib3's response when the failure is its status (the
    ``Retry`` reads its Retry-After header and records the status).
    """

    def __init__(self, reason: str, restart: bool = False, response: Any = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.restart = restart
        self.response = response


class _Partial:
    """The temp file being written and the running hashes of its bytes."""

    def __init__(self, path: Path, algorithms: tuple[str, ...]) -> None:
        self.path = path
        self.algorithms = algorithms
        self.file = open(path, "wb")  # noqa: SIM115 - closed in close()
        self.reset()

    def reset(self) -> None:
        self.file.seek(0)
        self.file.truncate()
        self.size = 0
        self.head = b""
        self.hashers = {a: hashlib.new(a) for a in self.algorithms}
        self.validator: str | None = None

    def write(self, chunk: bytes) -> None:
        try:
            self.file.write(chunk)
        except OSError as exc:  # a full disk will still be full after a backoff: not a retry
            raise CacheError(f"cannot save the download to {self.path.parent}: {exc.strerror or exc}") from None
        self.size += len(chunk)
        if len(self.head) < 512:
            self.head += chunk[: 512 - len(self.head)]
        for h in self.hashers.values():
            h.update(chunk)

    def close(self) -> None:
        if not self.file.closed:
            self.file.flush()
            os.fsync(self.file.fileno())
            self.file.close()


def _looks_like_html(head: bytes) -> bool:
    start = head.lstrip()[:100].lower()
    return start.startswith((b"<!doctype html", b"<html", b"<head", b"<?xml version")) and b"html" in start


def _retry_policy(policy: DownloadPolicy) -> Any:
    """urllib3's ``Retry`` for ``policy``: ``policy.retries`` retries in all, whatever failed."""
    from urllib3.util.retry import Retry

    return Retry(total=policy.retries, backoff_factor=policy.backoff, backoff_max=policy.backoff_max,
                 status_forcelist=RETRY_STATUSES, respect_retry_after_header=True)


def _next_wait(retry: Any, response: Any) -> float:
    """How long urllib3's ``Retry.sleep`` would wait: the server's Retry-After if any, else the backoff."""
    from urllib3.exceptions import InvalidHeader

    if response is not None and retry.respect_retry_after_header:
        try:
            after = retry.get_retry_after(response)
        except InvalidHeader:  # neither seconds nor an HTTP date: ignored, as a missing header
            after = None
        if after:
            return float(after)
    return float(retry.get_backoff_time())


def fetch(download: Download, dest: Path, policy: DownloadPolicy | None = None,
          progress: ProgressCallback | None = None) -> Path:
    """Download ``download`` to ``dest`` (atomically, verified) and return ``dest``.

    Raises :class:`DownloadError` (network/HTTP/timeouts/size cap after the
    retries), :class:`RedirectError` (refused redirect) or
    :class:`IntegrityError` (checksum or size mismatch). On any failure no
    file is left at ``dest`` or under a temporary name.
    """
    import requests
    from urllib3.exceptions import MaxRetryError

    policy = policy or DownloadPolicy.from_env()
    algorithms = tuple(a for a, v in (("sha256", download.sha256), ("md5", download.md5)) if v)
    cap = min(policy.max_size, download.size) if download.size else policy.max_size
    url = download.url
    started = time.monotonic()
    partial = _Partial(temp_path(dest.parent, ".part-", dest.name), algorithms)
    try:
        with requests.Session() as session:
            retry = _retry_policy(policy)
            while True:
                try:
                    _attempt(session, download, partial, policy, cap, started, progress, retry)
                    break
                except _Retry as failure:
                    if failure.restart:
                        partial.reset()
                    attempts = len(retry.history) + 1
                    try:
                        retry = retry.increment("GET", url, response=failure.response,
                                                error=None if failure.response is not None else failure)
                    except MaxRetryError:
                        retry = None
                    remaining = policy.deadline - (time.monotonic() - started)
                    if retry is None or remaining <= 0:
                        raise DownloadError(f"could not download {url}: {failure.reason} "
                                            f"(gave up after {attempts} attempt{'s' if attempts > 1 else ''})",
                                            url) from None
                    wait = max(0.0, min(_next_wait(retry, failure.response), policy.backoff_max, remaining))
                    log.warning("downloading %s: %s; retrying in %.1f s (attempt %d of %d)", url, failure.reason,
                                wait, attempts + 1, policy.retries + 1)
                    time.sleep(wait)
        partial.close()
        _verify(download, partial, cap)
        crash_point("after_download")
        os.replace(partial.path, dest)
        fsync_dir(dest.parent)
        return dest
    finally:
        with contextlib.suppress(OSError):
            partial.file.close()
        with contextlib.suppress(OSError):
            os.unlink(partial.path)


def _verify(download: Download, partial: _Partial, cap: int) -> None:
    url = download.url
    if download.size is not None and partial.size != download.size:
        raise IntegrityError(f"size mismatch for {url}: expected {download.size} bytes, got {partial.size}"
                             f"{_html_hint(partial)}", url, str(download.size), str(partial.size))
    if not download.sha256 and not download.md5:
        return  # a model the registry has no checksum for: models.py pins the sha256 of what arrived
    algorithm, expected = ("sha256", download.sha256) if download.sha256 else ("md5", download.md5)
    actual = partial.hashers[algorithm].hexdigest()
    if actual != expected:
        raise IntegrityError(f"checksum mismatch for {url}: expected {algorithm} {expected}, got {actual} "
                             f"({partial.size} bytes){_html_hint(partial)}; nothing was stored. "
                             "If this persists, the file changed upstream and the registry needs an update.",
                             url, expected, actual)


def _html_hint(partial: _Partial) -> str:
    if _looks_like_html(partial.head):
        return (" - the server sent an HTML page instead of the file (a captive portal, login page or "
                "error page?)")
    return ""


def _check_redirect(current: str, target: str) -> None:
    old, new = urlparse(current), urlparse(target)
    if new.scheme not in ("http", "https"):
        raise RedirectError(f"refusing redirect from {current} to {target}: only http(s) is allowed", current)
    if old.scheme == "https" and new.scheme == "http":
        raise RedirectError(f"refusing redirect from {current} to {target}: https to http downgrade", current)


def _open(session: Any, download: Download, headers: dict[str, str], policy: DownloadPolicy,
          started: float) -> Any:
    """GET with redirects followed by hand (each hop's scheme checked)."""
    import requests

    url = download.url
    for _hop in range(policy.max_redirects + 1):
        remaining = policy.deadline - (time.monotonic() - started)
        if remaining <= 0:
            raise _Retry("overall download deadline exceeded")
        timeout = (min(policy.connect_timeout, remaining), min(policy.read_timeout, remaining))
        try:
            response = session.get(url, headers=headers, stream=True, allow_redirects=False, timeout=timeout)
        except requests.exceptions.SSLError as exc:
            raise DownloadError(f"could not download {url}: TLS/SSL error ({exc.__class__.__name__}); "
                                "check the system's CA certificates", download.url) from None
        except requests.exceptions.InvalidURL as exc:
            raise DownloadError(f"could not download {url}: invalid URL ({exc})", download.url) from None
        except (requests.exceptions.ConnectionError, requests.exceptions.Timeout) as exc:
            hopeless = _cannot_succeed(exc)
            if hopeless:
                raise DownloadError(f"could not download {url}: connection failed ({hopeless}; not retried)",
                                    download.url) from None
            raise _Retry(f"connection failed ({_short(exc)})") from None
        if response.status_code in (301, 302, 303, 307, 308) and "Location" in response.headers:
            target = urljoin(url, response.headers["Location"])
            response.close()
            _check_redirect(url, target)
            url = target
            continue
        return response
    raise DownloadError(f"could not download {download.url}: more than {policy.max_redirects} redirects",
                        download.url)


def _cannot_succeed(exc: BaseException) -> str | None:
    """Why retrying this connection failure is pointless, or None.

    A host name that does not resolve (offline, a typo) will not resolve in a
    few seconds either, and a refused connection means nothing listens on the
    port: sacreBLEU fails at once there, and six attempts only made bleucli
    silent for half a minute. Timeouts and resets are still retried.
    """
    import urllib3

    pending: list[object] = [exc]
    seen: set[int] = set()
    while pending:
        item = pending.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, urllib3.exceptions.NameResolutionError):
            return "cannot resolve the host name (no network, or no DNS)"
        if isinstance(item, ConnectionRefusedError) or (
                isinstance(item, OSError) and item.errno == errno.ECONNREFUSED):
            return "connection refused"
        if isinstance(item, urllib3.exceptions.NewConnectionError) and "Connection refused" in str(item):
            return "connection refused"
        if isinstance(item, urllib3.exceptions.MaxRetryError):
            pending.append(item.reason)
        if isinstance(item, BaseException):
            pending.extend(a for a in item.args if isinstance(a, BaseException))
            if item.__cause__ is not None:
                pending.append(item.__cause__)
    return None


def _short(exc: BaseException) -> str:
    text = str(exc)
    match = re.search(r"\[Errno -?\d+\] [^'\"\)]+|Read timed out|timed out|Connection reset by peer|"
                      r"Connection refused|Connection aborted|IncompleteRead\([^)]*\)", text)
    return match.group(0) if match else exc.__class__.__name__


def _attempt(session: Any, download: Download, partial: _Partial, policy: DownloadPolicy, cap: int,
             started: float, progress: ProgressCallback | None, retry: Any) -> None:
    import requests
    import urllib3

    url = download.url
    headers = {"Accept-Encoding": "identity", "User-Agent": _user_agent()}
    resuming = partial.size > 0 and partial.validator is not None
    if resuming:
        headers["Range"] = f"bytes={partial.size}-"
        headers["If-Range"] = partial.validator  # type: ignore[assignment]
    elif partial.size:
        partial.reset()
    response = _open(session, download, headers, policy, started)
    with response:
        status = response.status_code
        if retry.is_retry("GET", status, "Retry-After" in response.headers):
            raise _Retry(f"HTTP {status} {response.reason or ''}".strip(), response=response.raw)
        if status == 416:
            raise _Retry("HTTP 416 (range not satisfiable)", restart=True)
        if status >= 400 or status not in (200, 206):
            raise DownloadError(f"could not download {url}: HTTP {status} {response.reason or ''}".rstrip(), url)
        if status == 206:
            if not resuming:
                raise _Retry("unexpected partial content", restart=True)
            match = re.match(r"bytes (\d+)-\d+/(\d+|\*)", response.headers.get("Content-Range", ""))
            if not match or int(match.group(1)) != partial.size:
                raise _Retry("server resumed at the wrong offset", restart=True)
        elif partial.size:
            partial.reset()  # 200 to a Range request: the server sends everything again
        length = response.headers.get("Content-Length")
        expected_total = None
        if length is not None and length.isdigit():
            expected_total = partial.size + int(length)
            if expected_total > cap:
                raise DownloadError(f"could not download {url}: {expected_total} bytes is over the size cap "
                                    f"of {cap} bytes", url)
        if "bytes" in response.headers.get("Accept-Ranges", "").lower() or status == 206:
            partial.validator = response.headers.get("ETag") or response.headers.get("Last-Modified") \
                or partial.validator
        else:
            partial.validator = None
        first = True
        try:
            for chunk in _chunks(response.raw):
                if time.monotonic() - started > policy.deadline:
                    raise DownloadError(f"could not download {url}: overall deadline of "
                                        f"{policy.deadline:g} s exceeded", url)
                if partial.size + len(chunk) > cap:
                    raise DownloadError(f"could not download {url}: more than the size cap of {cap} bytes", url)
                partial.write(chunk)
                if first:
                    first = False
                    crash_point("mid_download")
                if progress is not None:
                    progress(url, partial.size, expected_total)
        except (urllib3.exceptions.HTTPError, requests.exceptions.RequestException, OSError) as exc:
            raise _Retry(f"transfer interrupted after {partial.size} bytes ({_short(exc)})",
                         restart=partial.validator is None) from None
        if expected_total is not None and partial.size != expected_total:
            raise _Retry(f"body cut off at {partial.size} of {expected_total} bytes",
                         restart=partial.validator is None)


def _chunks(raw: Any) -> Any:
    """Raw (undecoded) body chunks, returned as soon as *some* bytes arrive.

    ``raw.stream(n)`` waits until ``n`` bytes are buffered, so a server
    dripping a byte at a time would hold it far past the overall deadline;
    ``read1`` returns after one socket read (urllib3 >= 2), bounded by the
    read timeout, so the deadline is checked between reads.
    """
    read1 = getattr(raw, "read1", None)
    if read1 is None:  # urllib3 1.x
        yield from raw.stream(_CHUNK, decode_content=False)
        return
    while True:
        chunk = read1(_CHUNK, decode_content=False)
        if not chunk:
            return
        yield chunk


def _user_agent() -> str:
    from ..version import __version__

    return f"bleucli/{__version__} (+https://github.com/; test-set downloader)"
