"""An aiosmtpd handler for the tests: stores mail in a Maildir like aiosmtpd's Mailbox, and
answers some recipients the way real servers do when they cannot take a message.

- a recipient whose local part starts with ``bounce`` gets ``550 5.1.1`` (permanent);
- one starting with ``later`` gets ``451 4.3.0`` (temporary) for its first three tries, then
  the message is taken.

Every RCPT is appended to ``<maildir>/rcpt.log`` as ``<unix time> <address> <code>``, so a
test can count the tries and the time between them.

Run as ``python tests/smtpsink.py MAILDIR``: it listens on a port the system gives it on
127.0.0.1 and prints that port on its first line. (Picking a free port first and handing it
over left a moment in which another test's server could take it: the sink then failed to bind,
another server answered on the port, and the mail went nowhere.)
"""

import asyncio
import os
import sys
import time

from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import SMTP


class Handler(Mailbox):
    def __init__(self, maildir):
        super().__init__(maildir)
        self.log = os.path.join(maildir, "rcpt.log")
        self.tries = {}

    def _record(self, address, code):
        with open(self.log, "a", encoding="utf-8") as f:
            f.write(f"{time.time():.3f} {address} {code}\n")

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        local = address.split("@", 1)[0].lower()
        if local.startswith("bounce"):
            self._record(address, 550)
            return "550 5.1.1 No such mailbox"
        if local.startswith("later"):
            n = self.tries.get(address, 0) + 1
            self.tries[address] = n
            if n <= 3:
                self._record(address, 451)
                return "451 4.3.0 Try again later"
        self._record(address, 250)
        envelope.rcpt_tos.append(address)
        return "250 OK"


async def serve(maildir):
    handler = Handler(maildir)
    server = await asyncio.get_running_loop().create_server(lambda: SMTP(handler), "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(serve(sys.argv[1]))
