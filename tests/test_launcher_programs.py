"""config/launcher/supervisor.py: the exact programs ./bin/run gives supervisord (their command
lines spelled out here, so a refactoring of how they are built cannot change them unseen)."""

from __future__ import annotations

import sys
from pathlib import Path

from config import launcher
from config.launcher.common import BOUND

VENV_BIN = Path(sys.executable).parent
CELERY = str(VENV_BIN / "celery")


def _bound(*cmd: str) -> list[str]:
    return [sys.executable, str(BOUND), "TERM", "--", *cmd]


def _worker(queues: str, node: str, *tail: str) -> list[str]:
    return _bound(
        CELERY, "-A", "config", "worker", "--loglevel", "INFO", "-Q", queues, "-n", node, *tail
    )


def _layout(programs: list[launcher.Program]) -> list[tuple[object, ...]]:
    return [
        (p.name, p.command, p.priority, p.stopsignal, p.stopwaitsecs, p.autostart, p.user, p.log)
        for p in programs
    ]


def test_the_default_layout_is_exactly_productions(tmp_path: Path) -> None:
    env = {"TIENLEN_DATA_DIR": str(tmp_path)}
    assert _layout(launcher.site_programs(env)) == [
        (
            "daphne",
            _bound(
                str(VENV_BIN / "daphne"),
                "--bind",
                "127.0.0.1",
                "--port",
                "8000",
                "config.asgi:application",
            ),
            300,
            "TERM",
            15,
            False,
            None,
            None,
        ),
        (
            "worker-default",
            _worker("default,bots", "default@%h", "--concurrency", "2"),
            200,
            "TERM",
            30,
            False,
            None,
            None,
        ),
        (
            "worker-trials",
            _worker("trials", "trials@%h", "--concurrency", "2"),
            200,
            "TERM",
            30,
            False,
            None,
            None,
        ),
        (
            "worker-lab",
            _worker("lab", "lab@%h", "--concurrency", "1"),
            200,
            "TERM",
            30,
            False,
            None,
            None,
        ),
        (
            "worker-bots-0",
            _worker(
                "bots.idle",
                "bots-0@%h",
                "-P",
                "threads",
                "--concurrency",
                "8",
                "--bot-shards",
                "lease",
                "--bot-shard-home",
                "bots.0",
            ),
            200,
            "TERM",
            30,
            False,
            None,
            None,
        ),
        (
            "worker-tournament",
            _bound(
                "nice",
                "-n",
                "10",
                CELERY,
                "-A",
                "config",
                "worker",
                "--loglevel",
                "INFO",
                "-Q",
                "bots.idle",
                "-n",
                "tournament@%h",
                "-P",
                "threads",
                "--concurrency",
                "8",
                "--bot-shards",
                "lease",
                "--bot-shard-home",
                "bots.tournament",
            ),
            200,
            "TERM",
            30,
            False,
            None,
            None,
        ),
        (
            "worker-ladder",
            _bound(
                "nice",
                "-n",
                "15",
                CELERY,
                "-A",
                "config",
                "worker",
                "--loglevel",
                "INFO",
                "-Q",
                "ladder",
                "-n",
                "ladder@%h",
                "-P",
                "threads",
                "--concurrency",
                "4",
                "--bot-shards",
                "lease",
                "--bot-shard-home",
                "bots.ladder",
            ),
            200,
            "TERM",
            30,
            False,
            None,
            None,
        ),
        (
            "beat",
            _bound(
                CELERY,
                "-A",
                "config",
                "beat",
                "--loglevel",
                "INFO",
                "--pidfile=",
            ),
            200,
            "TERM",
            15,
            False,
            None,
            None,
        ),
    ]


def test_the_environment_sets_shards_concurrency_and_address(tmp_path: Path) -> None:
    env = {
        "TIENLEN_DATA_DIR": str(tmp_path),
        "BOTS_QUEUE_SHARDS": "3",
        "CELERY_CONCURRENCY": "5",
        "BOTS_TRIALS_CONCURRENCY": "3",
        "BOTS_LAB_CONCURRENCY": "4",
        "BOTS_SHARD_THREADS": "16",
        "HOST": "0.0.0.0",
        "PORT": "8123",
    }
    programs = {p.name: p for p in launcher.site_programs(env)}
    assert list(programs) == [
        "daphne",
        "worker-default",
        "worker-trials",
        "worker-lab",
        "worker-bots-0",
        "worker-bots-1",
        "worker-bots-2",
        "worker-tournament",
        "worker-ladder",
        "beat",
    ]
    assert programs["daphne"].command[-5:] == [
        "--bind",
        "0.0.0.0",
        "--port",
        "8123",
        "config.asgi:application",
    ]
    assert programs["worker-default"].command == _worker(
        "default,bots", "default@%h", "--concurrency", "5"
    )
    assert programs["worker-trials"].command == _worker("trials", "trials@%h", "--concurrency", "3")
    assert programs["worker-lab"].command == _worker("lab", "lab@%h", "--concurrency", "4")
    assert programs["worker-tournament"].command[-8:] == [
        "-P",
        "threads",
        "--concurrency",
        "16",
        "--bot-shards",
        "lease",
        "--bot-shard-home",
        "bots.tournament",
    ]
    for n in range(3):
        # its home shard through a lease (config/shards.py): -Q names only an idle queue
        assert programs[f"worker-bots-{n}"].command == _worker(
            "bots.idle",
            f"bots-{n}@%h",
            "-P",
            "threads",
            "--concurrency",
            "16",
            "--bot-shards",
            "lease",
            "--bot-shard-home",
            f"bots.{n}",
        )
        assert programs[f"worker-bots-{n}"].stopwaitsecs == 30


def test_empty_settings_fall_back_to_the_defaults(tmp_path: Path) -> None:
    env = {
        "TIENLEN_DATA_DIR": str(tmp_path),
        "BOTS_QUEUE_SHARDS": "",
        "CELERY_CONCURRENCY": "",
        "BOTS_TRIALS_CONCURRENCY": "",
        "BOTS_LAB_CONCURRENCY": "",
        "BOTS_SHARD_THREADS": "",
    }
    assert _layout(launcher.site_programs(env)) == _layout(
        launcher.site_programs({"TIENLEN_DATA_DIR": str(tmp_path)})
    )
    commands = {p.name: p.command for p in launcher.site_programs(env)}
    assert commands["worker-default"][-2:] == ["--concurrency", "2"]
    assert commands["worker-lab"][-2:] == ["--concurrency", "1"]
    assert commands["worker-trials"][-2:] == ["--concurrency", "2"]
    assert commands["worker-bots-0"][-8:-4] == ["-P", "threads", "--concurrency", "8"]
    assert "worker-bots-1" not in commands


def test_the_supervisord_sections_of_the_workers(tmp_path: Path) -> None:
    env = {"TIENLEN_DATA_DIR": str(tmp_path), "BOTS_QUEUE_SHARDS": "2"}
    sections = {p.name: p.section() for p in launcher.site_programs(env)}
    prefix = f"command={sys.executable} {BOUND} TERM -- {CELERY} -A config worker --loglevel INFO"
    assert (
        f"{prefix} -Q default,bots -n default@%%h --concurrency 2\n" in sections["worker-default"]
    )
    assert f"{prefix} -Q lab -n lab@%%h --concurrency 1\n" in sections["worker-lab"]
    assert f"{prefix} -Q trials -n trials@%%h --concurrency 2\n" in sections["worker-trials"]
    nice = f"command={sys.executable} {BOUND} TERM -- nice -n 10 {CELERY} -A config worker"
    assert (
        f"{nice} --loglevel INFO -Q bots.idle -n tournament@%%h -P threads --concurrency 8"
        " --bot-shards lease --bot-shard-home bots.tournament\n" in sections["worker-tournament"]
    )
    assert (
        f"{prefix} -Q bots.idle -n bots-1@%%h -P threads --concurrency 8"
        " --bot-shards lease --bot-shard-home bots.1\n" in sections["worker-bots-1"]
    )
    for name in (
        "worker-default",
        "worker-trials",
        "worker-lab",
        "worker-bots-0",
        "worker-bots-1",
        "worker-tournament",
    ):
        assert "stopwaitsecs=30\n" in sections[name]
        assert "priority=200\n" in sections[name]
        assert "killasgroup=true\n" in sections[name]
        assert "stdout_logfile=/dev/stdout\n" in sections[name]


def test_a_node_runs_the_programs_of_its_roles_with_its_own_worker_names(tmp_path: Path) -> None:
    """./bin/node (docs/cluster.md): a chosen set of roles, the same programs as ./bin/run's,
    every Celery worker named after the node so two nodes on one host never clash."""
    env = {"TIENLEN_DATA_DIR": str(tmp_path), "BOTS_QUEUE_SHARDS": "2", "PORT": "8111"}
    everything = launcher.site_programs(env)
    assert [p.name for p in launcher.site_programs(env, launcher.ROLES)] == [
        p.name for p in everything
    ]
    web = launcher.site_programs(env, ["web"], node="a")
    assert [p.name for p in web] == ["daphne"]
    assert web[0].command[-3:] == ["--port", "8111", "config.asgi:application"]
    workers = {p.name: p for p in launcher.site_programs(env, ["worker", "bots", "beat"], node="b")}
    assert list(workers) == [
        "worker-default",
        "worker-trials",
        "worker-bots-0",
        "worker-bots-1",
        "worker-tournament",
        "beat",
    ]
    assert workers["worker-default"].command == _worker(
        "default,bots", "default@b", "--concurrency", "2"
    )
    assert workers["worker-bots-1"].command == _worker(
        "bots.idle",
        "bots-1@b",
        "-P",
        "threads",
        "--concurrency",
        "8",
        "--bot-shards",
        "lease",
        "--bot-shard-home",
        "bots.1",
    )
    assert [p.name for p in launcher.site_programs(env, ["lab", "ladder"])] == [
        "worker-lab",
        "worker-ladder",
    ]


def test_an_unknown_role_is_refused(tmp_path: Path) -> None:
    import pytest

    with pytest.raises(ValueError, match="unknown roles: webb"):
        launcher.site_programs({"TIENLEN_DATA_DIR": str(tmp_path)}, ["webb", "beat"])


def test_the_shipped_haproxy_configuration_is_the_generator_s_and_haproxy_accepts_it() -> None:
    """deploy/haproxy.cfg is `python -m config.haproxy`'s output (docs/cluster.md), checked by
    haproxy itself when it is installed."""
    import shutil
    import subprocess

    from config.haproxy import render

    shipped = Path(__file__).resolve().parents[1] / "deploy" / "haproxy.cfg"
    assert shipped.read_text() == render()
    text = render(servers=[("a", "10.0.0.1:8000"), ("b", "10.0.0.2:8000")], check_host="x.org")
    assert "    server b 10.0.0.2:8000 check\n" in text
    assert "hdr Host x.org" in text
    assert "http-request deny deny_status 404 if { path /metrics }" in text
    haproxy = shutil.which("haproxy") or shutil.which("/usr/sbin/haproxy")
    if haproxy:
        check = subprocess.run([haproxy, "-c", "-f", str(shipped)], capture_output=True)
        assert check.returncode == 0, check.stderr
