"""Support for the browser tests: a live `glossa serve` on 127.0.0.1 and headless Chromium.

Chromium and its driver come from Debian (`chromium`, `chromium-driver`, installed by
scripts/install-deps.sh test); Selenium drives them. Nothing is downloaded at run time.
"""
import base64
import contextlib
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

REPO = pathlib.Path(__file__).resolve().parent.parent
SCREENSHOTS = REPO / os.environ.get("TEST_OUTPUT", "test-output") / "screenshots"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(url: str, process: subprocess.Popen | None, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"glossa serve exited with {process.returncode} before answering")
        try:
            with urllib.request.urlopen(url + "/", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"glossa serve did not answer at {url} within {timeout} s")


def new_data_folder() -> str:
    """A data folder (XDG_DATA_HOME) of its own: keys and glossaries made in a test never reach
    the runner's home folder. glossa_serve removes it when the server stops."""
    return tempfile.mkdtemp(prefix="glossa-webapp-data-")


def create_key(binary: str, data: str, name: str, *options: str) -> str:
    """`glossa keys create --name NAME OPTIONS…` in the key store of `data`: the key it prints."""
    made = subprocess.run([binary, "keys", "create", "--name", name, *options], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "XDG_DATA_HOME": data}, check=True)
    return made.stdout.strip()


@contextlib.contextmanager
def glossa_serve(binary: str, cwd: str | None = None, args: tuple[str, ...] = (), data: str | None = None):
    """Starts `glossa serve ARGS…` on a free loopback port, with `data` (new_data_folder()) as its
    data folder, else a new one; stops it by its PID (SIGTERM, then SIGKILL)."""
    port = free_port()
    log = tempfile.TemporaryFile()
    data = data or new_data_folder()
    process = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", str(port), *args],
                               stdout=log, stderr=subprocess.STDOUT, cwd=cwd, env={**os.environ, "XDG_DATA_HOME": data})
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url, process)
        yield url
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        log.close()
        shutil.rmtree(data, ignore_errors=True)


def chromium(language: str = "en-US", width: int = 1100, height: int = 800) -> webdriver.Chrome:
    """Headless Debian Chromium with the given browser language and window size."""
    binary = shutil.which("chromium") or "/usr/bin/chromium"
    driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", "--disable-extensions", f"--lang={language}",
                     f"--window-size={width},{height}", "--hide-scrollbars"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(executable_path=driver))


def screenshot(driver, name: str) -> pathlib.Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    driver.save_screenshot(str(path))
    return path


def full_page_screenshot(driver, name: str) -> pathlib.Path:
    """The whole page, not only the window (Chromium's DevTools protocol)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
    path.write_bytes(base64.b64decode(shot["data"]))
    return path


def wait_for(driver, condition, timeout: float = 60, message: str = ""):
    """Waits until `condition(driver)` is truthy and returns its value."""
    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(condition, message)


def console_errors(driver) -> list[str]:
    """Severe browser console entries (script errors, refused loads), read and cleared."""
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
