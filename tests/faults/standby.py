"""Two PostgreSQL clusters on this machine, standing for the cage's two laptops: a primary and its
synchronous standby, made with PostgreSQL's own programs as docs/scaling.md ("A standby laptop")
tells a site to (initdb, pg_basebackup -R; pg_ctl promote when the primary dies). Each listens on
a free port of the loopback and lives in a temporary folder, removed with it.

initdb and postgres refuse to run as root: run as root (CI, a container), the clusters run as the
`postgres` user, who owns their folder.
"""

import ctypes
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

PROGRAMS = ("initdb", "pg_ctl", "pg_basebackup", "postgres")
# As on the laptops (docs/scaling.md): a commit is acknowledged once the standby has it on disk,
# whichever laptop the standby is; wal_log_hints lets pg_rewind bring back a primary that died.
# pg_basebackup copies this file, so the standby has the same lines.
CONFIGURATION = """
synchronous_commit = on
synchronous_standby_names = '*'
wal_log_hints = on
# Throwaway clusters: their dynamic shared memory in their own folder, not in /dev/shm, so that
# nothing of a killed one outlives its folder.
dynamic_shared_memory_type = mmap
"""
# Safety nets, not timed assertions: a server that never comes up fails the test instead of hanging it.
START_LIMIT = 60
GONE_LIMIT = 30
IPC_RMID = 0


def programs_or_skip() -> Path:
    """The folder of PostgreSQL's server programs, or a skip saying they are missing (a failure
    where REQUIRE_POSTGRES_TOOLS=1 asks for them, as CI does)."""
    candidates = []
    if shutil.which("postgres"):
        candidates.append(Path(shutil.which("postgres")).resolve().parent)
    versions = [p for p in Path("/usr/lib/postgresql").glob("*/bin") if p.parent.name.isdigit()]
    candidates += sorted(versions, key=lambda p: int(p.parent.name), reverse=True)
    for folder in candidates:
        if all((folder / program).is_file() for program in PROGRAMS):
            return folder
    missing(
        "PostgreSQL's server programs (initdb, pg_ctl, pg_basebackup, postgres) are not installed "
        "(apt-get install postgresql)"
    )


def owner_or_skip() -> pwd.struct_passwd | None:
    """Who runs the clusters: whoever runs the test, or `postgres` if that is root."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        missing("the test runs as root, and there is no postgres user to run PostgreSQL's server as")


def missing(reason: str):
    if os.environ.get("REQUIRE_POSTGRES_TOOLS"):
        pytest.fail(f"REQUIRE_POSTGRES_TOOLS is set, but {reason}")
    pytest.skip(reason)


def free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for each in sockets:
            each.bind(("127.0.0.1", 0))
        return [each.getsockname()[1] for each in sockets]
    finally:
        for each in sockets:
            each.close()


@dataclass
class Cluster:
    name: str  # also its cluster_name, which its server log and replication connection go by
    data: Path
    port: int
    process: subprocess.Popen | None = None

    def connect(self, dbname: str = "postgres"):
        import psycopg

        return psycopg.connect(
            host="127.0.0.1", port=self.port, user="postgres", dbname=dbname, connect_timeout=5, autocommit=True
        )


class StandbyPair:
    """The primary and the standby, the programs they were made with, and the user they run as."""

    def __init__(self, folder: Path, programs: Path, owner: pwd.struct_passwd | None):
        self.folder = folder
        self.programs = programs
        self.owner = owner
        primary_port, standby_port = free_ports(2)
        self.primary = Cluster("primary", folder / "primary", primary_port)
        self.standby = Cluster("standby", folder / "standby", standby_port)
        self.orphans: list[int] = []  # the killed primary's children, which end themselves
        # Their own environment: no PGHOST, PGPORT or PGDATA of the caller's to send them elsewhere.
        self.environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
        if owner is not None:
            self.environment["HOME"] = owner.pw_dir

    @property
    def url(self) -> str:
        """The product's DATABASE_URL: both servers, the one that takes writes chosen."""
        hosts = f"127.0.0.1:{self.primary.port},127.0.0.1:{self.standby.port}"
        return f"postgres://postgres@{hosts}/cage?target_session_attrs=read-write"

    def set_up(self) -> None:
        primary, standby = self.primary, self.standby
        if self.owner is not None:
            os.chown(self.folder, self.owner.pw_uid, self.owner.pw_gid)
        self.run("initdb", "-D", str(primary.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C")
        with (primary.data / "postgresql.conf").open("a") as conf:
            conf.write(CONFIGURATION)
        self.start(primary)
        # initdb's pg_hba.conf lets replication in from 127.0.0.1; a laptop's needs its own line.
        self.run(
            "pg_basebackup", "-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres",
            "-D", str(standby.data), "-R", "-X", "stream", "--checkpoint=fast",
        )  # fmt: skip
        self.start(standby)
        self.wait_for_sync()
        # Only now: with no standby, the primary's commits would wait for one.
        with primary.connect() as connection:
            connection.execute("CREATE DATABASE cage")

    def run(self, program: str, *args: str) -> str:
        done = subprocess.run(
            [str(self.programs / program), *args],
            cwd=self.folder,
            env=self.environment,
            capture_output=True,
            text=True,
            timeout=300,
            **self.as_owner(),
        )
        assert done.returncode == 0, f"{program} {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
        return done.stdout

    def as_owner(self) -> dict:
        if self.owner is None:
            return {}
        return {"user": self.owner.pw_uid, "group": self.owner.pw_gid, "extra_groups": []}

    def start(self, cluster: Cluster) -> None:
        """The postmaster itself, not through pg_ctl, so that its process is ours to kill and wait for."""
        with self.log_path(cluster).open("a") as log:
            cluster.process = subprocess.Popen(
                [str(self.programs / "postgres"), "-D", str(cluster.data), "-p", str(cluster.port)]
                + ["-k", str(self.folder), "-c", "listen_addresses=127.0.0.1", "-c", f"cluster_name={cluster.name}"],
                cwd=self.folder,
                env=self.environment,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,
                **self.as_owner(),
            )
        deadline = time.monotonic() + START_LIMIT
        while True:
            try:
                cluster.connect().close()
                return
            except Exception:
                if cluster.process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"{cluster.name} did not start:\n{self.log(cluster)}") from None
                time.sleep(0.05)

    def wait_for_sync(self) -> None:
        deadline = time.monotonic() + START_LIMIT
        with self.primary.connect() as connection:
            while time.monotonic() < deadline:
                states = connection.execute("SELECT sync_state FROM pg_stat_replication WHERE state = 'streaming'")
                if ("sync",) in states.fetchall():
                    return
                time.sleep(0.05)
        raise AssertionError(f"the standby never became synchronous:\n{self.log(self.standby)}")

    def log_path(self, cluster: Cluster) -> Path:
        return self.folder / f"{cluster.name}.log"

    def log(self, cluster: Cluster) -> str:
        path = self.log_path(cluster)
        return path.read_text()[-4000:] if path.exists() else ""

    def kill_primary(self) -> None:
        """SIGKILL to the primary's postmaster, as a crash would. Its children (the connections'
        backends, the WAL sender) see it die and end themselves."""
        self.orphans = children(self.primary.process.pid)
        self.primary.process.kill()
        self.primary.process.wait()

    def promote(self) -> None:
        """What whoever looks after the laptops does when the primary has died (docs/scaling.md):
        the standby stops waiting for a standby of its own (it has none now), then is promoted."""
        with self.standby.connect() as connection:
            connection.execute("ALTER SYSTEM SET synchronous_standby_names = ''")
            connection.execute("SELECT pg_reload_conf()")
        self.run("pg_ctl", "promote", "-D", str(self.standby.data), "-w", "-t", str(START_LIMIT))

    def close(self) -> None:
        """Both servers stopped, whatever state they are in, and their folder removed."""
        try:
            for cluster in (self.primary, self.standby):
                stop(cluster)
            wait_gone(self.orphans)
            remove_shared_memory(self.primary.data)
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def stop(cluster: Cluster) -> None:
    """An immediate shutdown (SIGQUIT): the postmaster ends its children, then itself."""
    if cluster.process is None or cluster.process.poll() is not None:
        return
    cluster.process.send_signal(signal.SIGQUIT)
    try:
        cluster.process.wait(timeout=GONE_LIMIT)
    except subprocess.TimeoutExpired:
        cluster.process.kill()
        cluster.process.wait()


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            # After the command's name, whose closing bracket is the last: the state, then the parent.
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


def wait_gone(pids: list[int]) -> None:
    deadline = time.monotonic() + GONE_LIMIT
    while any(Path(f"/proc/{pid}").exists() for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)


def remove_shared_memory(data: Path) -> None:
    """The small System V segment a killed postmaster leaves behind (its id is in postmaster.pid,
    which a clean stop removes), which starting that cluster again would have cleared."""
    try:
        key_and_id = (data / "postmaster.pid").read_text().splitlines()[6].split()
    except (OSError, IndexError):
        return
    if len(key_and_id) == 2 and key_and_id[1].isdigit():
        ctypes.CDLL(None, use_errno=True).shmctl(int(key_and_id[1]), IPC_RMID, None)


@contextmanager
def primary_and_standby() -> Iterator[StandbyPair]:
    """A primary with an empty database `cage`, and a standby streaming from it that each commit
    on the primary waits for. Both stopped, and their folder removed, whatever happens."""
    programs, owner = programs_or_skip(), owner_or_skip()
    pair = StandbyPair(Path(tempfile.mkdtemp(prefix="cage-standby-")), programs, owner)
    try:
        pair.set_up()
        yield pair
    finally:
        pair.close()
