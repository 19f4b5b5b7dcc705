"""What a visitor may not make a class server do: empty shared caches, hoard uploads (or leave them held), look
itself up, read its metrics.

Each guard changes one Streamlit behaviour in place, for the whole server process, and says why. The
launcher (serve.py, which `make app` and the tests use) installs them all with `install_server_guards()`
before the server listens; the frame (app.py) installs them again before any page runs, for a server
started with a plain `streamlit run app.py`, which runs no code of the app until its first page.
"""
from __future__ import annotations

import threading

from starlette.exceptions import HTTPException
from starlette.responses import PlainTextResponse
from streamlit import config, net_util
from streamlit.logger import get_logger
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.uploaded_file_manager import UploadedFileRec
from streamlit.runtime.websocket_session_manager import WebsocketSessionManager
from streamlit.web.server.starlette.starlette_path_security_middleware import PathSecurityMiddleware

from ui.shared.warm_start import READY_PATH, ready

log = get_logger(__name__)

# Uploads held at once, in files of server.maxUploadSize (8 MB): a session imports one file at a time, and
# may hold the next while the browser deletes the last; a class's simultaneous imports share the rest.
SESSION_UPLOAD_FILES = 2
SERVER_UPLOAD_FILES = 10
# The modules plotly reads from sys.modules without importing them (_plotly_utils.optional_imports.get_module
# with should_load=False): a module another thread is still importing is there half made.
PLOTLY_PEEKS_AT = ("numpy", "pandas", "PIL.Image")
METRICS_PATH = "/_stcore/metrics"

_STREAMLIT_ADD_FILE = MemoryUploadedFileManager.add_file
_STREAMLIT_PATH_CHECK = PathSecurityMiddleware.__call__
_STREAMLIT_DISCONNECT = WebsocketSessionManager.disconnect_session
_UPLOAD_BOUND = threading.Lock()  # the bound is checked and the file added as one step


def install_server_guards() -> None:
    """Every guard below; cheap to call again (the frame calls it on every page run)."""
    load_what_plotly_peeks_at()
    refuse_clear_cache()
    bound_uploads()
    free_uploads_on_disconnect()
    never_look_up_this_machine()
    refuse_metrics()


def refuse_clear_cache() -> None:
    """Make every session answer a client's clear_cache with one line in the log and nothing else.

    Streamlit's client can send a `clear_cache` message, and Streamlit honours it whatever the toolbar
    shows: it empties st.cache_resource and st.cache_data for every session, the loaded models and the
    run slots included. One student sending it in a loop made a crowd's page loads fail (38 of 71) while
    every session loaded the models again. The app hides the menu item that sends it (toolbarMode
    "viewer"), so a refusal takes nothing from a lecturer; whoever runs the server empties the caches by
    restarting it.
    """
    AppSession._handle_clear_cache_request = _refuse


def _refuse(session: AppSession) -> None:
    log.warning("refused a browser's request to clear the shared caches (session %s)", session.id)


def load_what_plotly_peeks_at() -> None:
    """Import pandas (and numpy, Pillow) in full before any session draws a figure.

    Plotly's array check looks pandas up in sys.modules without importing it. Streamlit imports pandas
    lazily, so while one session's thread was importing it another's figure found it half made:
    `partially initialized module 'pandas' has no attribute 'Series'` (2 of 5 crowds of 45). An import
    statement waits for another thread's import of the same module to finish, so after this returns in
    any session, every later figure finds the whole module.
    """
    for name in PLOTLY_PEEKS_AT:
        __import__(name)


def bound_uploads() -> None:
    """Refuse an upload that would take one session past SESSION_UPLOAD_FILES, or the server past
    SERVER_UPLOAD_FILES, full-size files held at once.

    Streamlit keeps every uploaded file in memory until its session ends, and its limit is per file:
    150 uploads of 19 MB from one client took the server from 2.0 to 4.7 GB. The upload request answers
    413 (this session holds enough) or 503 (the server does), and the server's log says so in one line.
    The archive's import frees its file when it is done (`free_session_uploads`).
    """
    MemoryUploadedFileManager.add_file = _add_file_within_bounds


def _add_file_within_bounds(manager: MemoryUploadedFileManager, session_id: str, file: UploadedFileRec) -> None:
    full_file = config.get_option("server.maxUploadSize") * 1024 * 1024
    with _UPLOAD_BOUND:
        session_holds, server_holds = _held_besides(manager, session_id, file.file_id)
        if session_holds + len(file.data) > SESSION_UPLOAD_FILES * full_file:
            log.warning("refused an upload: session %s already holds %d bytes of uploads", session_id, session_holds)
            raise HTTPException(413, "This session holds as many uploads as it may; import or remove one first.")
        if server_holds + len(file.data) > SERVER_UPLOAD_FILES * full_file:
            log.warning("refused an upload: the server already holds %d bytes of uploads", server_holds)
            raise HTTPException(503, "The server holds as many uploads as it may; try again in a minute.")
        _STREAMLIT_ADD_FILE(manager, session_id, file)


def _held_besides(manager: MemoryUploadedFileManager, session_id: str, file_id: str) -> tuple[int, int]:
    """Bytes of uploads the session and the server hold, not counting the file `file_id` (which a new upload
    of the same id replaces)."""
    with manager._lock:
        session_files = manager.file_storage.get(session_id, {})
        replaced = len(session_files[file_id].data) if file_id in session_files else 0
        session_holds = sum(len(held.data) for held in session_files.values()) - replaced
        return session_holds, manager._total_bytes - replaced


def free_uploads_on_disconnect() -> None:
    """Drop a session's uploads when its tab disconnects, not when the session is finally forgotten.

    Streamlit keeps a disconnected session for a while, so that a tab coming back finds it, and its uploads
    with it: five tabs that uploaded and closed held the server's whole upload share for 12 minutes, and
    every other student's import was answered 503 meanwhile. A tab that comes back uploads again.
    """
    WebsocketSessionManager.disconnect_session = _disconnect_freeing_uploads


def _disconnect_freeing_uploads(manager: WebsocketSessionManager, session_id: str) -> None:
    info = manager.get_active_session_info(session_id)
    _STREAMLIT_DISCONNECT(manager, session_id)
    if info is not None:
        info.session._uploaded_file_mgr.remove_session_files(session_id)


def free_session_uploads() -> None:
    """Drop every file this session has uploaded: the archive calls it once an import has said its outcome.

    The uploader then offers no file on the next run (the browser may still show its name)."""
    ctx = get_script_run_ctx()
    if ctx is not None:
        ctx.uploaded_file_mgr.remove_session_files(ctx.session_id)


def never_look_up_this_machine() -> None:
    """Make Streamlit's address look-ups answer "unknown" instead of asking the network.

    A websocket from a foreign Origin is refused, but before refusing it Streamlit compared the Origin
    with this machine's addresses, asking checkip.amazonaws.com for the external one (up to 2 s, on the
    event loop) and opening a socket towards 8.8.8.8 for the internal one: a server that promises never
    to ask the internet asked it on every such handshake. No setting stops it (browser.serverAddress and
    server.corsAllowedOrigins are checked beside the look-ups, not instead of them). Without them an
    Origin is accepted when it is the page's own host, localhost, browser.serverAddress, or in
    server.corsAllowedOrigins; the start-up banner shows no "External URL".
    """
    net_util.get_external_ip = _unknown_address
    net_util.get_internal_ip = _unknown_address


def _unknown_address() -> None:
    return None


def refuse_metrics() -> None:
    """Answer /_stcore/metrics with 404: what it tells (sessions open, what the caches hold) is for whoever
    runs the server, not for every student on the network. The same check answers the warm start's
    READY_PATH, which tells a proxy or launcher whether this server has its pairs loaded.

    Streamlit 1.67 has no setting that turns the endpoint off, so its path check, the first thing every
    HTTP request meets, refuses it.
    """
    PathSecurityMiddleware.__call__ = _answer_own_paths


async def _answer_own_paths(middleware: PathSecurityMiddleware, scope, receive, send) -> None:
    path = scope.get("path", "").rstrip("/") if scope["type"] == "http" else ""
    if path.endswith(METRICS_PATH):
        await PlainTextResponse("Not Found", status_code=404)(scope, receive, send)
    elif path.endswith(READY_PATH):
        await _readiness()(scope, receive, send)
    else:
        await _STREAMLIT_PATH_CHECK(middleware, scope, receive, send)


def _readiness() -> PlainTextResponse:
    """200 once the warm start is done, 503 before; the body names this server's port, so a client behind a
    proxy can tell which replica answered."""
    port = config.get_option("server.port")
    if ready.is_set():
        return PlainTextResponse(f"ready on port {port}\n", headers={"Cache-Control": "no-store"})
    return PlainTextResponse(f"loading its pairs on port {port}\n", status_code=503, headers={"Cache-Control": "no-store"})
