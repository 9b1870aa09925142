"""Real servers on 127.0.0.1 for the replies that come with no provider.

`listener`: the service's own SMTP listener (games.mailin.listener) in a thread on a free port;
`dovecot`: a Dovecot IMAP server (Debian's dovecot-imapd, which scripts/test installs) started for
the test as the test's user (as root: its unprivileged users), its configuration, passwd-file,
maildir and logs in a temporary directory, plain IMAP on a free port; messages are delivered into
it by IMAP APPEND, as a mail server's delivery would put them there.
"""

from __future__ import annotations

import grp
import imaplib
import logging
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from games.mailin import listener as smtp_listener

logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every line of every dialogue

REPLY_DOMAIN = "reply.example.org"
MAILBOX = "turns@example.org"
PASSWORD = "imap-s3cret"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(autouse=True)
def _reply_settings(settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "postmark:inbound-s3cret"}
    settings.REPLY_DOMAIN = REPLY_DOMAIN
    settings.DEFAULT_FROM_EMAIL = "Café turns <turns@example.org>"
    settings.REPLY_IMAP_URL = ""


@pytest.fixture
def listener() -> Iterator[smtp_listener.Listener]:
    """The SMTP listener on 127.0.0.1, on a free port; `.port`, `.handler.wait_idle()`."""
    server = smtp_listener.Listener("127.0.0.1", free_port())
    server.start()
    yield server
    server.stop()
    server.handler.close()


# --- Dovecot -----------------------------------------------------------------------------------

CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain
mail_location = maildir:{root}/mail/%n
default_login_user = {login_user}
default_internal_user = {internal_user}
default_internal_group = {internal_group}
first_valid_uid = 1
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/mail/%n
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
"""


@dataclass
class Dovecot:
    port: int
    root: Path
    user: str = MAILBOX
    password: str = PASSWORD

    def url(self, **options: str) -> str:
        query = "&".join(f"{k}={v}" for k, v in options.items())
        return f"imap://{self.user.replace('@', '%40')}:{self.password}@127.0.0.1:{self.port}/INBOX" + (
            f"?{query}" if query else ""
        )

    def imap(self) -> imaplib.IMAP4:
        client = imaplib.IMAP4("127.0.0.1", self.port, timeout=10)
        client.login(self.user, self.password)
        return client

    def deliver(self, raw: bytes, folder: str = "INBOX") -> None:
        """Put a message in the mailbox, as the mail server's delivery would."""
        client = self.imap()
        try:
            status, _ = client.append(folder, None, None, raw)
            assert status == "OK"
        finally:
            client.logout()

    def count(self, folder: str) -> int:
        client = self.imap()
        try:
            status, data = client.select(folder, readonly=True)
            return int(data[0]) if status == "OK" else 0
        finally:
            client.logout()


@pytest.fixture(scope="session")
def dovecot_server() -> Iterator[Dovecot]:
    """One Dovecot for the session (a second or so to start); each test gets it empty (`dovecot`)."""
    binary = shutil.which("dovecot") or "/usr/sbin/dovecot"
    if not os.path.exists(binary):
        pytest.fail("Dovecot is not installed: scripts/test installs it (apt-get install dovecot-imapd)")
    root = Path(tempfile.mkdtemp(prefix="cafe-turns-dovecot-"))
    port = free_port()
    if os.getuid() == 0:  # Dovecot never gives mail to root: its own unprivileged users then
        login_user, internal_user, owner = "dovenull", "dovecot", "nobody"
        internal_group = "dovecot"
        os.chmod(root, 0o755)
    else:  # rootless: every process as this user, no chroot
        login_user = internal_user = owner = pwd.getpwuid(os.getuid()).pw_name
        internal_group = grp.getgrgid(os.getgid()).gr_name
    uid = pwd.getpwnam(owner).pw_uid
    gid = pwd.getpwnam(owner).pw_gid
    for part in ("run", "state", "mail"):
        (root / part).mkdir()
    os.chown(root / "mail", uid, gid)
    (root / "passwd").write_text(f"{MAILBOX}:{{PLAIN}}{PASSWORD}::::::\n")
    config = root / "dovecot.conf"
    config.write_text(
        CONFIG.format(
            root=root,
            port=port,
            login_user=login_user,
            internal_user=internal_user,
            internal_group=internal_group,
            uid=uid,
            gid=gid,
        )
    )
    process = subprocess.Popen([binary, "-F", "-c", str(config)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    log = (root / "dovecot.log").read_text() if (root / "dovecot.log").exists() else ""
                    output = process.stdout.read().decode() if process.poll() is not None else ""
                    pytest.fail(f"Dovecot did not start on 127.0.0.1:{port}:\n{output}\n{log}")
                time.sleep(0.1)
        yield Dovecot(port, root)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def dovecot(dovecot_server: Dovecot) -> Iterator[Dovecot]:
    """The session's Dovecot, emptied after the test: every folder but INBOX deleted, INBOX expunged."""
    yield dovecot_server
    client = dovecot_server.imap()
    try:
        for line in client.list()[1]:
            name = line.decode().rsplit(' "." ', 1)[-1].strip().strip('"')
            if name and name != "INBOX":
                client.delete(f'"{name}"')
        if int(client.select("INBOX")[1][0]):
            client.store("1:*", "+FLAGS", "\\Deleted")
            client.expunge()
    finally:
        client.logout()
