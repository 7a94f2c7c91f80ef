"""The bot editor in a real Chromium: Monaco loads from our static files (no network), offers
gameState completions, and an example bot is typed into, saved, validated and tested."""

from __future__ import annotations

from typing import Any

import pytest

from bots.models import Bot
from tests.browser.helpers import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COMPLETIONS_JS = """
async () => {
  const model = monaco.editor.getModels()[0];
  const saved = model.getValue();
  model.setValue("/** @param {GameState} s */\\nfunction f(s) { return s. }");
  const getWorker = await monaco.languages.typescript.getJavaScriptWorker();
  const worker = await getWorker(model.uri);
  const offset = model.getValue().indexOf("s. }") + 2;
  const info = await worker.getCompletionsAtPosition(model.uri.toString(), offset);
  model.setValue(saved);
  return info.entries.map((e) => e.name);
}
"""


def test_write_save_and_test_a_bot(live_server: Any, page: Any) -> None:
    base = live_server.url
    outside: list[str] = []

    def only_this_site(route: Any) -> None:
        if route.request.url.startswith(base):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.context.route("**/*", only_this_site)
    user = UserFactory.create(username="coder")
    log_in(page, base, user)

    # My Bots → Create New Bot → the editor opens with the template.
    page.goto(base + "/bots/")
    page.get_by_label("Name").fill("Browser Bot")
    page.get_by_role("button", name="Create bot").click()
    page.wait_for_selector("[data-bot-editor][data-monaco='ready']", timeout=30_000)
    assert page.locator("#monaco .monaco-editor").count() == 1
    assert page.locator("#monaco .line-numbers").count() > 0
    assert "getNextMove" in page.locator("#monaco").inner_text()

    # Autocomplete of gameState comes from static/js/bots/types/<game>.d.ts in the TS worker.
    names = page.evaluate(COMPLETIONS_JS)
    assert {"validMoves", "myCards", "lastPlay", "canPass"} <= set(names)

    # Load an example, then type into the editor.
    page.get_by_role("tab", name="Examples").click()
    page.get_by_role("button", name="Load Greedy").click()
    page.locator("#monaco .view-lines").click()
    page.keyboard.press("Control+End")
    page.keyboard.type("\n// typed in the browser\n")
    assert page.locator("#dirty-flag").is_visible()

    # Save: a new version, validated (the test scheduler runs it at once) and marked ready.
    page.get_by_role("button", name="Save").click()
    page.wait_for_selector("#save-status:has-text('Saved as v2')")
    # the toolbar names the version now being edited, not the one the page opened with
    assert page.locator("#shown-version").inner_text() == "editing from v2"
    page.wait_for_selector("#bot-version [data-status='ready']", timeout=30_000)
    bot = Bot.objects.get(owner=user, name="Browser Bot")
    latest = bot.versions.get(number=2)
    assert "typed in the browser" in latest.code
    assert "Greedy bot" in latest.code
    assert latest.status == "ready"
    assert not page.locator("#dirty-flag").is_visible()
    # issue 25: the list's badge and "Evaluate v2" follow the validation, without a reload
    page.wait_for_selector(".be-bot-list li.current .bot-status[data-status='ready']")
    evaluate = page.locator(".be-left-foot .evaluate-link")
    assert evaluate.inner_text() == "Evaluate v2"
    assert evaluate.get_attribute("href") == f"/bots/{bot.pk}/versions/2/evaluate/"

    # issue 25: code with a syntax error is refused with its line; no version is saved
    page.evaluate("() => monaco.editor.getModels()[0].setValue('// ok\\nfunction getNextMove( {')")
    page.get_by_role("button", name="Save").click()
    page.wait_for_selector("#save-status:has-text('Not saved')")
    assert "Syntax error at line 2" in page.locator("#save-status").inner_text()
    assert page.locator("#problems li").first.inner_text().startswith("Line 2")
    assert bot.versions.count() == 2
    assert page.locator("#dirty-flag").is_visible()
    page.evaluate("code => monaco.editor.getModels()[0].setValue(code)", latest.code)

    # Test Bot: one ✓ per sample state, shown in the console pane.
    page.get_by_role("button", name="Test Bot").click()
    page.wait_for_selector("#test-summary:has-text('passed')", timeout=30_000)
    results = page.locator("#test-results .test-result")
    assert results.count() >= 10
    assert page.locator("#test-results .test-result.ok").count() == results.count()
    assert "✓ Test 1: Opening lead with 3♠" in results.first.inner_text()
    assert (
        page.locator("#test-summary").inner_text()
        == f"{results.count()} of {results.count()} passed"
    )

    assert outside == []


def test_a_failing_bot_shows_crosses_with_the_error_and_console(
    live_server: Any, page: Any
) -> None:
    base = live_server.url
    user = UserFactory.create(username="breaker")
    log_in(page, base, user)
    page.goto(base + "/bots/")
    page.get_by_label("Name").fill("Broken Bot")
    page.get_by_role("button", name="Create bot").click()
    page.wait_for_selector("[data-bot-editor][data-monaco='ready']", timeout=30_000)
    page.evaluate(
        """() => monaco.editor.getModels()[0].setValue(
            'function getNextMove(s) { console.log("hand <b>", s.myCards.length); '
            + 'return { action: "play", cards: [s.validMoves[40].cards[0]] }; }')"""
    )
    page.get_by_role("button", name="Test Bot").click()
    page.wait_for_selector("#test-summary:has-text('passed')", timeout=30_000)
    first = page.locator("#test-results .test-result").first
    assert first.get_attribute("data-ok") == "false"
    text = first.inner_text()
    assert "✗ Test 1" in text
    assert "exception: " in text
    assert "TypeError" in text  # the bot's own error, inside the sentence (bots/error_text.py)
    assert "hand <b> 13" in text  # console output, shown as text (not HTML)
    assert page.locator("#console").inner_text().startswith("[test 1] hand <b> 13")
