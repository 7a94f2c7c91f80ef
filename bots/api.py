"""REST endpoints of the bots app: ``/api/bots/`` (the caller's own bots and their versions)
and the public, read-only ``/api/bots/leaderboard/``."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from django.http import Http404
from django.urls import reverse
from django.utils.translation import ngettext
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User
from bots.error_text import validation_message
from bots.models import DEFAULT_GAME, MAX_CODE_LENGTH, Bot, BotRating, BotVersion, game_choices
from bots.selectors import (
    bot_leaderboard,
    bot_list,
    botversion_get,
    botversion_list,
    botversion_results,
)
from bots.services import (
    BotLabError,
    BotSyntaxError,
    BotTestRunLimitError,
    bot_check_syntax,
    bot_create,
    bot_delete,
    bot_require_compiles,
    bot_test_run_get,
    bot_test_run_move_start,
    bot_test_run_start,
    bot_update,
    botversion_create,
    botversion_rollback,
    lab_error_text,
)
from games.services import table_create_bot_practice


@extend_schema_field(
    {
        "type": "string",
        "description": "One of: " + ", ".join(BotVersion.Status.values) + ". pending = the "
        "validation game has not been played yet; only ready versions can be seated.",
    }
)
class VersionStatusField(serializers.CharField):
    """A version's status; a plain string in the schema (tables already own the enum name
    "status", and a second choice set under that name makes drf-spectacular warn)."""


class BotSerializer(serializers.ModelSerializer[Bot]):
    latest_version = serializers.IntegerField(read_only=True, allow_null=True)
    latest_status = VersionStatusField(read_only=True, allow_null=True)
    code = serializers.CharField(
        write_only=True,
        required=False,
        max_length=MAX_CODE_LENGTH,
        trim_whitespace=False,
        help_text="JavaScript source; saving it adds a new version.",
    )
    game = serializers.ChoiceField(
        choices=game_choices(),
        required=False,
        help_text=f"The game the bot plays (an engine name, default {DEFAULT_GAME}); set when "
        "the bot is created, it cannot be changed.",
    )

    class Meta:
        model = Bot
        fields = (
            "id",
            "name",
            "description",
            "game",
            "latest_version",
            "latest_status",
            "code",
            "created_at",
            "updated_at",
        )
        read_only_fields = ("id", "latest_version", "created_at", "updated_at")

    def validate_name(self, value: str) -> str:
        owner = self.context["request"].user
        clash = Bot.objects.filter(owner=owner, name=value)
        if self.instance is not None:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise serializers.ValidationError("You already have a bot with this name.")
        return value

    def validate_game(self, value: str) -> str:
        if self.instance is not None and value != self.instance.game:
            raise serializers.ValidationError(
                "A bot plays one game; create a new bot for another game."
            )
        return value


def validation_summary(version: BotVersion) -> dict[str, Any]:
    """The stored validation without its per-move records (those are in the detail view), its
    ``message`` in the active language."""
    summary = {k: v for k, v in (version.validation or {}).items() if k != "records"}
    if summary:
        summary["message"] = validation_message(summary)
    return summary


class BotVersionSerializer(serializers.ModelSerializer[BotVersion]):
    status = VersionStatusField(read_only=True)
    validation = serializers.SerializerMethodField(
        help_text="Validation game summary: ready, reason, message, moves, strikes, avg_ms…"
    )

    class Meta:
        model = BotVersion
        fields = ("id", "number", "status", "created_at", "validation")
        read_only_fields = fields
        extra_kwargs = {
            "id": {
                "help_text": "The version id: what seats a version anywhere (version_id of "
                "POST /api/matches/, bot_version_id of POST /api/bots/<id>/practice/)."
            }
        }

    def get_validation(self, obj: BotVersion) -> dict[str, Any]:
        return validation_summary(obj)


class BotVersionDetailSerializer(serializers.ModelSerializer[BotVersion]):
    status = VersionStatusField(read_only=True)

    class Meta:
        model = BotVersion
        fields = ("id", "number", "status", "created_at", "code", "validation")
        read_only_fields = fields


class CodeSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(max_length=MAX_CODE_LENGTH, trim_whitespace=False)


class MoveReferenceSerializer(serializers.Serializer[Any]):
    game_id = serializers.IntegerField(min_value=1, help_text="A finished game's id.")
    seq = serializers.IntegerField(min_value=1, help_text="The move (action seq) of your bot.")
    seat = serializers.IntegerField(min_value=0, help_text="Your bot's seat in that game.")


class TestRunRequestSerializer(CodeSerializer):
    game = serializers.ChoiceField(
        choices=game_choices(),
        required=False,
        help_text=f"Whose sample states to run (the bot's game; default {DEFAULT_GAME}). With "
        "move, it must be that game's engine.",
    )
    move = MoveReferenceSerializer(
        required=False,
        help_text="Replay lab: run the code once on the exact gameState your bot received at "
        "this move of a finished game (recomputed on the server), instead of the samples.",
    )


class PracticeRequestSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text="The version number to seat (default: the promoted version if ready, else "
        "the latest ready one; an external bot's is 1).",
    )
    seats = serializers.IntegerField(
        required=False, help_text="Players in all, within the game's range (default 4)."
    )
    house_level = serializers.CharField(
        required=False, default="medium", help_text="The house AIs' level (easy, medium, hard…)."
    )


class PracticeTableSerializer(serializers.Serializer[Any]):
    table = serializers.CharField(help_text="The table's code (GET /api/tables/<code>/).")
    url = serializers.CharField(help_text="The table's page, to watch the games.")
    game = serializers.CharField()
    seats = serializers.IntegerField()
    seat = serializers.IntegerField(help_text="The bot's seat (0).")
    bot_version_id = serializers.IntegerField()
    version = serializers.IntegerField(help_text="The version number seated.")


class BotErrorSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(
        help_text="not_ready, bot_busy, unknown_bot, bad_level, bad_seats, no_such_version"
    )
    detail = serializers.CharField()


class SyntaxIssueSerializer(serializers.Serializer[Any]):
    line = serializers.IntegerField()
    column = serializers.IntegerField()
    message = serializers.CharField()


class SyntaxCheckSerializer(serializers.Serializer[Any]):
    issues = SyntaxIssueSerializer(many=True)


class NewVersionSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="The version id.")
    number = serializers.IntegerField()
    status = VersionStatusField()
    created_at = serializers.DateTimeField()
    issues = SyntaxIssueSerializer(many=True, help_text="Syntax problems ([] if it compiles).")


class SampleResultSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    key = serializers.CharField()
    title = serializers.CharField()
    description = serializers.CharField()
    ok = serializers.BooleanField()
    hand = serializers.ListField(child=serializers.CharField())
    table = serializers.CharField(help_text="What is on the table, in words.")
    move = serializers.JSONField(allow_null=True, help_text="The bot's raw return.")
    action = serializers.JSONField(allow_null=True, help_text="The engine action it stands for.")
    move_text = serializers.CharField()
    error_code = serializers.CharField(allow_null=True)
    error_kind = serializers.CharField(allow_null=True, help_text="sandbox, rules or not_run")
    error_message = serializers.CharField(allow_null=True)
    console = serializers.ListField(child=serializers.CharField())
    console_truncated = serializers.BooleanField()
    elapsed_ms = serializers.FloatField()


class LabAnswerSerializer(serializers.Serializer[Any]):
    ok = serializers.BooleanField(help_text="The sandbox produced a return.")
    value = serializers.JSONField(allow_null=True, help_text="The code's raw return.")
    legal = serializers.BooleanField(help_text="parse_bot_move accepts it on that state.")
    action = serializers.JSONField(allow_null=True, help_text="The engine action, when legal.")
    move_text = serializers.CharField()
    error_code = serializers.CharField(allow_null=True)
    error_kind = serializers.CharField(allow_null=True, help_text="sandbox or rules")
    error_message = serializers.CharField(allow_null=True)
    console = serializers.ListField(child=serializers.CharField())
    console_truncated = serializers.BooleanField()
    elapsed_ms = serializers.FloatField()


class LabResultSerializer(serializers.Serializer[Any]):
    game_id = serializers.IntegerField()
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    original = serializers.JSONField(
        help_text="What the bot did in the game: returned, move, strike, error_code, "
        "error_message, console, elapsed_ms, legal, move_text."
    )
    new = LabAnswerSerializer(help_text="The code's answer now, judged on the same state.")
    changed = serializers.BooleanField(help_text="The return differs from the original's.")
    same_action = serializers.BooleanField(help_text="Both legal and the same engine move.")


class TestRunSerializer(serializers.Serializer[Any]):
    id = serializers.CharField(help_text="The run's id.")
    status = serializers.CharField(
        help_text="queued or running: poll url again; done: passed, total and results are set; "
        "failed: error says why.",
    )
    url = serializers.CharField(help_text="Where to poll this run (GET).")
    game = serializers.CharField()
    passed = serializers.IntegerField(required=False)
    total = serializers.IntegerField(required=False)
    results = SampleResultSerializer(many=True, required=False)
    move = MoveReferenceSerializer(required=False, help_text="A Replay lab run's move.")
    lab = LabResultSerializer(required=False, help_text="A Replay lab run's result, once done.")
    error = serializers.CharField(required=False)


class LabRefusedSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()
    code = serializers.CharField(
        help_text="bad_reference, not_found, not_finished, deal_in_play, not_your_seat, "
        "no_such_move, wrong_game"
    )


class TestRunLimitSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()
    code = serializers.CharField(help_text="test_runs_in_flight")


class VersionResultsSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    status = VersionStatusField()
    created_at = serializers.DateTimeField()
    validation = serializers.JSONField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    average_points = serializers.FloatField(allow_null=True)
    win_rate = serializers.FloatField(allow_null=True)


class LeaderboardEntrySerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="1 = best.")
    bot_id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.CharField(help_text="The owner's public name.")
    rating = serializers.IntegerField(help_text="Shown rating: 1500 + 24 × (mu − 3 × sigma).")
    mu = serializers.FloatField(help_text="Skill mean (openskill Plackett–Luce).")
    sigma = serializers.FloatField(help_text="Skill uncertainty.")
    games = serializers.IntegerField(help_text="Rated arena games played.")
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()
    last_version = serializers.IntegerField(
        allow_null=True, help_text="Version number that played the latest rated game."
    )
    last_played_at = serializers.DateTimeField(allow_null=True)


def leaderboard_entry(rank: int, rating: BotRating) -> dict[str, Any]:
    return {
        "rank": rank,
        "bot_id": rating.bot_id,
        "name": rating.bot.name,
        "owner": rating.bot.owner.public_name,
        "rating": rating.display,
        "mu": round(rating.mu, 4),
        "sigma": round(rating.sigma, 4),
        "games": rating.games,
        "wins": rating.wins,
        "win_rate": round(rating.win_rate or 0.0, 3),
        "last_version": getattr(rating, "last_version_number", None),
        "last_played_at": rating.last_played_at,
    }


NUMBER_PARAM = OpenApiParameter("number", int, OpenApiParameter.PATH, description="Version number")


def test_run_payload(run: dict[str, Any]) -> dict[str, Any]:
    url = reverse("api:bot-test-run-result", args=[run["id"]])
    return run | {"url": url}


class BotViewSet(
    mixins.ListModelMixin,
    mixins.CreateModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[Bot],
):
    """Your bots. Other users' bots are invisible here (404)."""

    serializer_class = BotSerializer
    creation_kind = "bots"  # games.throttles.CreationThrottle

    def _owner(self) -> User:
        user = self.request.user
        assert isinstance(user, User)  # IsAuthenticated runs first
        return user

    def get_queryset(self) -> QuerySet[Bot]:
        if getattr(self, "swagger_fake_view", False):  # schema generation: no request user
            return Bot.objects.none()
        return bot_list(owner=self._owner())

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        code = request.data.get("code") if isinstance(request.data, dict) else None
        return _syntax_refusal(code) or super().create(request, *args, **kwargs)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        code = request.data.get("code") if isinstance(request.data, dict) else None
        return _syntax_refusal(code) or super().update(request, *args, **kwargs)

    def perform_create(self, serializer: serializers.BaseSerializer[Bot]) -> None:
        data: dict[str, Any] = dict(serializer.validated_data)
        try:
            serializer.instance = bot_create(owner=self._owner(), **data)
        except DjangoValidationError as exc:
            raise ValidationError(exc.message_dict) from exc
        serializer.instance = self.get_queryset().get(pk=serializer.instance.pk)

    def perform_update(self, serializer: serializers.BaseSerializer[Bot]) -> None:
        data: dict[str, Any] = dict(serializer.validated_data)
        data.pop("game", None)  # validate_game: never changed
        assert serializer.instance is not None
        if "code" in data:
            _refuse_external(serializer.instance)  # 400 external_bot, as POST …/versions/
        try:
            bot = bot_update(bot=serializer.instance, **data)
        except DjangoValidationError as exc:
            raise ValidationError(exc.message_dict) from exc
        serializer.instance = self.get_queryset().get(pk=bot.pk)

    def perform_destroy(self, instance: Bot) -> None:
        try:
            bot_delete(bot=instance)
        except DjangoValidationError as exc:
            raise ValidationError({"detail": exc.messages}) from exc

    def _version(self, bot: Bot, number: str) -> BotVersion:
        try:
            return botversion_get(bot=bot, number=int(number))
        except (BotVersion.DoesNotExist, ValueError) as exc:
            raise Http404("No such version.") from exc

    # ------------------------------------------------------------------ versions

    @extend_schema(
        methods=["GET"],
        summary="List a bot's versions, newest first",
        responses=BotVersionSerializer(many=True),
    )
    @extend_schema(
        methods=["POST"],
        summary="Save code as the next version (validated in the background)",
        request=CodeSerializer,
        responses={201: NewVersionSerializer},
    )
    @action(detail=True, methods=["get", "post"], url_path="versions")
    def versions(self, request: Request, pk: str | None = None) -> Response:
        bot = self.get_object()
        if request.method == "POST":
            _refuse_external(bot)
            body = CodeSerializer(data=request.data)
            body.is_valid(raise_exception=True)
            code = body.validated_data["code"]
            refused = _syntax_refusal(code)
            if refused is not None:
                return refused
            version = botversion_create(bot=bot, code=code)
            version.refresh_from_db()  # validation may have run already (the tests' scheduler)
            return Response(
                {
                    "id": version.pk,
                    "number": version.number,
                    "status": version.status,
                    "created_at": version.created_at,
                    "issues": [],  # code with a syntax error is refused (syntax_error)
                },
                status=status.HTTP_201_CREATED,
            )
        qs = botversion_list(bot=bot)
        paginator = self.paginator
        page = None if paginator is None else paginator.paginate_queryset(qs, request, view=self)
        if page is not None:
            return self.get_paginated_response(BotVersionSerializer(page, many=True).data)
        return Response(BotVersionSerializer(qs, many=True).data)

    @extend_schema(
        summary="One version with its code and full validation record",
        parameters=[NUMBER_PARAM],
        responses=BotVersionDetailSerializer,
    )
    @action(detail=True, methods=["get"], url_path=r"versions/(?P<number>[0-9]+)")
    def version_detail(self, request: Request, pk: str | None = None, number: str = "") -> Response:
        version = self._version(self.get_object(), number)
        return Response(BotVersionDetailSerializer(version).data)

    @extend_schema(
        summary="Roll back: save an older version's code as the next version",
        parameters=[NUMBER_PARAM],
        request=None,
        responses={201: BotVersionSerializer},
    )
    @action(detail=True, methods=["post"], url_path=r"versions/(?P<number>[0-9]+)/rollback")
    def rollback(self, request: Request, pk: str | None = None, number: str = "") -> Response:
        bot = self.get_object()
        _refuse_external(bot)
        source = self._version(bot, number)
        version = botversion_rollback(bot=bot, number=source.number)
        version.refresh_from_db()
        return Response(BotVersionSerializer(version).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Compare versions: validation and real game results per version",
        parameters=[
            OpenApiParameter(
                "versions",
                str,
                OpenApiParameter.QUERY,
                required=True,
                description="Comma-separated version numbers, e.g. 3,5",
            )
        ],
        responses=VersionResultsSerializer(many=True),
    )
    @action(detail=True, methods=["get"], url_path="compare")
    def compare(self, request: Request, pk: str | None = None) -> Response:
        bot = self.get_object()
        raw = request.query_params.get("versions", "")
        try:
            numbers = [int(n) for n in raw.split(",") if n.strip()]
        except ValueError as exc:
            raise ValidationError({"versions": ["Give version numbers, e.g. 3,5."]}) from exc
        if not numbers or len(numbers) > 10:
            raise ValidationError({"versions": ["Give 1 to 10 version numbers, e.g. 3,5."]})
        return Response([r.to_json() for r in botversion_results(bot=bot, numbers=numbers)])

    # ------------------------------------------------------------------ practice

    @extend_schema(
        summary="Practice: a private table where the bot plays house AIs (any bot, any game)",
        description="Creates a private practice table (never rated) of the bot's game: the "
        "bot at seat 0, house AIs at the other seats, game 1 dealt after the usual countdown; "
        "you watch at url. An external bot's program gets game_start, then its turns. New "
        "games follow until the session's games are played (16), as at any practice table.",
        request=PracticeRequestSerializer,
        responses={201: PracticeTableSerializer, 400: BotErrorSerializer},
    )
    @action(detail=True, methods=["post"], url_path="practice")
    def practice(self, request: Request, pk: str | None = None) -> Response:
        bot = self.get_object()
        body = PracticeRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        ready = bot.versions.filter(status=BotVersion.Status.READY)
        if "version" in data:
            version = ready.filter(number=data["version"]).first()
        else:
            promoted = bot.promoted_version_id
            version = (promoted and ready.filter(pk=promoted).first()) or ready.order_by(
                "-number"
            ).first()
        if version is None:
            return Response(
                {"code": "no_such_version", "detail": "The bot has no such ready version."},
                status=status.HTTP_400_BAD_REQUEST,
            )
        try:
            table = table_create_bot_practice(
                owner=self._owner(),
                bot_version_id=version.pk,
                game=bot.game,
                seats=data.get("seats"),
                house_level=data["house_level"],
            )
        except DjangoValidationError as exc:
            return Response(
                {"code": exc.code or "bad_request", "detail": " ".join(exc.messages)},
                status=status.HTTP_400_BAD_REQUEST,
            )
        return Response(
            {
                "table": table.code,
                "url": reverse("tables:detail", args=[table.code]),
                "game": table.game,
                "seats": table.seat_count,
                "seat": 0,
                "bot_version_id": version.pk,
                "version": version.number,
            },
            status=status.HTTP_201_CREATED,
        )

    # ------------------------------------------------------------------ leaderboard

    @extend_schema(
        summary="Bot leaderboard: rated bots, best first (public)",
        description="Bots rated from their games at bot arena tables (openskill Plackett–Luce "
        "over the user bots of each game; people and house AIs are not rated), ordered by "
        "the conservative estimate mu − 3 × sigma. No authentication needed; never includes code.",
        parameters=[
            OpenApiParameter(
                "game",
                str,
                OpenApiParameter.QUERY,
                description=f"The game whose bots are listed (default {DEFAULT_GAME}).",
            )
        ],
        responses=LeaderboardEntrySerializer(many=True),
    )
    @action(
        detail=False,
        methods=["get"],
        url_path="leaderboard",
        permission_classes=[AllowAny],
        serializer_class=LeaderboardEntrySerializer,
    )
    def leaderboard(self, request: Request) -> Response:
        game = request.query_params.get("game", DEFAULT_GAME)
        if game not in dict(game_choices()):
            raise ValidationError({"game": f"unknown game {game!r}"})
        qs = bot_leaderboard(game=game)
        paginator = self.paginator
        page = None if paginator is None else paginator.paginate_queryset(qs, request, view=self)
        if page is None:
            return Response([leaderboard_entry(i, r) for i, r in enumerate(qs, start=1)])
        django_page = getattr(paginator, "page", None)  # PageNumberPagination keeps it
        start = django_page.start_index() if django_page is not None else 1
        data = [leaderboard_entry(start + i, r) for i, r in enumerate(page)]
        return self.get_paginated_response(LeaderboardEntrySerializer(data, many=True).data)

    # ------------------------------------------------------------------ running code

    @extend_schema(
        summary="Test Bot: run code against the fixed sample states",
        description="Starts a run on a bot worker and answers 202 at once with the run: poll "
        "its url until status is done (or failed). Each sample runs in a fresh sandbox (5 s "
        "per move). A result is ok when the engine accepts the returned move; otherwise "
        "error_code is a sandbox code (timeout, exception, …) or an engine code "
        "(does_not_beat, …). At most BOTS_TEST_RUNS_PER_USER (2) runs per user are in flight: "
        "one more is refused with 429 and code test_runs_in_flight.",
        request=TestRunRequestSerializer,
        responses={
            202: TestRunSerializer,
            400: LabRefusedSerializer,
            429: TestRunLimitSerializer,
        },
    )
    @action(detail=False, methods=["post"], url_path="test-run")
    def test_run(self, request: Request) -> Response:
        body = TestRunRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        try:
            if "move" in data:  # the Replay lab: one real state, checked on the server
                ref = data["move"]
                run = bot_test_run_move_start(
                    user=self._owner(),
                    code=data["code"],
                    game_id=ref["game_id"],
                    seq=ref["seq"],
                    seat=ref["seat"],
                    game=data.get("game"),
                )
            else:
                game = data.get("game", DEFAULT_GAME)
                run = bot_test_run_start(user=self._owner(), code=data["code"], game=game)
        except BotLabError as exc:
            return Response(
                {"detail": lab_error_text(exc.code), "code": exc.code},
                status=status.HTTP_400_BAD_REQUEST,
            )
        except BotTestRunLimitError as exc:
            message = ngettext(
                "You already have %(limit)d test run in progress. Wait for it to finish.",
                "You already have %(limit)d test runs in progress. Wait for one to finish.",
                exc.limit,
            ) % {"limit": exc.limit}
            return Response(
                {"detail": message, "code": exc.code},
                status=status.HTTP_429_TOO_MANY_REQUESTS,
                headers={"Retry-After": "5"},
            )
        return Response(test_run_payload(run), status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        summary="A Test Bot run: its status, and its results once done",
        responses=TestRunSerializer,
    )
    @action(
        detail=False,
        methods=["get"],
        url_path=r"test-run/(?P<run_id>[0-9a-f]{32})",
        url_name="test-run-result",
    )
    def test_run_result(self, request: Request, run_id: str = "") -> Response:
        run = bot_test_run_get(user=self._owner(), run_id=run_id)
        if run is None:
            raise Http404
        return Response(test_run_payload(run))

    @extend_schema(
        summary="Check JavaScript syntax without running the code",
        request=CodeSerializer,
        responses=SyntaxCheckSerializer,
    )
    @action(detail=False, methods=["post"], url_path="check-syntax")
    def check_syntax(self, request: Request) -> Response:
        body = CodeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        issues = bot_check_syntax(code=body.validated_data["code"])
        return Response({"issues": [_issue(i) for i in issues]})


def _issue(issue: Any) -> dict[str, Any]:
    return {"line": issue.line, "column": issue.column, "message": issue.message}


def _syntax_refusal(code: Any) -> Response | None:
    """The 400 ``syntax_error`` answer (the first error's line and column in ``detail``, every
    error in ``issues``) for code that does not compile, or None: no version is saved then."""
    if not isinstance(code, str):
        return None  # none given, or not a string: the serializer answers
    try:
        bot_require_compiles(code=code)
    except BotSyntaxError as exc:
        body = {"code": exc.code, "detail": str(exc), "issues": [_issue(i) for i in exc.issues]}
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    return None


def _refuse_external(bot: Bot) -> None:
    """An external bot (``bots.external``) has no code: no versions, rollbacks or validation."""
    if bot.kind == Bot.Kind.EXTERNAL:
        raise ValidationError(
            {"code": "external_bot", "detail": "An external bot has no code: a program plays it."}
        )
