#!/usr/bin/env bash
# Style rules at work, through the local runner with the deterministic engine:
#   translate  POST /v2/translate throughput and latency (wrk, 16 connections) with a style rule
#              list of 30 rules Glossa applies itself attached, against none, alternated three
#              times so both see the same machine; the cost of the list as the ratio of their
#              throughputs (with a fixed number of connections, the inverse of the time per request).
# Target: the list costs at most 1.1x the latency of translating without it.
source "$(dirname "$0")/lib.sh"

app style deterministic
key=$(developer_key "$address")
auth="Authorization: Service-Auth-Key $key"

# Thirty German rules that Glossa applies itself (category, rule, option).
python3 - "$work/list.json" <<'PY'
import json, sys
rules = """
dates_and_times date_format use_dd_period_mm_period_yyyy
dates_and_times dates_in_numerical_form use_dd_period_mm_period_yyyy
dates_and_times hours_minutes_seconds_separator use_period
dates_and_times hours_minutes_separator use_colon_without_spaces
dates_and_times midnight_in_numerals use_00_00
dates_and_times single_digit_days_and_months use_leading_zero
dates_and_times single_digit_hours do_not_use_leading_zero
formatting space_between_chinese_and_english do_not_use
numbers currency_format use_amount_followed_by_space_then_currency_symbol
numbers decimal_numbers_less_than_one always_use_0_before_decimal_separator
numbers decimal_separator use_comma_as_decimal_separator
numbers dimensions_separator use_multiplication_sign_between_dimensions_with_space_on_either_side
numbers numbers_of_5_digits_or_more use_comma_as_decimal_separator_and_period_as_thousands_separator
numbers numbers_up_to_4_digits use_comma_as_decimal_separator_and_period_as_thousands_separator
numbers percentage_format use_numerals_followed_by_space_then_half_width_percent_symbol
numbers temperature_format use_numerals_followed_by_space_then_unit_symbol
numbers thousands_separator use_period_as_thousands_separator
numbers units_of_measure_spacing use_space_between_numeral_and_unit_of_measure
punctuation ampersand_abbreviation_spacing do_not_use_spaces_before_and_after_ampersand_as_part_of_abbreviation
punctuation apostrophe use_curly_apostrophes
punctuation colon_between_hours_and_minutes_or_chapters_and_verses do_not_use_space_before_or_after_colon
punctuation ellipsis use_ellipsis_character
punctuation quotation_mark use_curly_quotation_marks
punctuation quotation_style use_double_german_quotation_marks_for_primary_quotations_and_single_german_quotation_marks_for_secondary_quotations
punctuation range_indicator use_en_dash_without_spaces
punctuation sentence_break_indicator use_em_dash_with_space_on_either_side
punctuation slash do_not_use_spaces_before_and_after_slashes
punctuation spacing_and_punctuation do_not_use_space
punctuation round_brackets use_half_width_round_brackets
spelling_and_grammar accents_and_cedillas do_not_use_on_capital_letters
"""
configured = {}
for line in rules.split("\n"):
    if line.strip():
        category, rule, option = line.split()
        configured.setdefault(category, {})[rule] = option
assert sum(len(rules) for rules in configured.values()) == 30
json.dump({"name": "bench: 30 mechanical rules", "language": "de", "configured_rules": configured}, open(sys.argv[1], "w"))
PY
curl -fs -o "$work/answer" -X POST -H "$auth" -H "Content-Type: application/json" \
    --data-binary "@$work/list.json" "http://$address/v3/style_rules"
list=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["style_id"])' "$work/answer")

# A sentence with something for most rules: numbers, a date, a time, a range, quotes.
text='On 2026-11-25 at 9:05 the price rose 3.5 % to 12500.75 EUR, pages 10-20, \"quoted\" ... and more.'
plain="{\"text\": [\"$text\"], \"source_lang\": \"EN\", \"target_lang\": \"DE\"}"
styled="{\"text\": [\"$text\"], \"source_lang\": \"EN\", \"target_lang\": \"DE\", \"style_id\": \"$list\"}"
for kind in plain styled; do
    curl -fs -o "$work/$kind.out" -X POST -H "$auth" -H "Content-Type: application/json" -d "${!kind}" \
        "http://$address/v2/translate"
    echo "$kind: $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["translations"][0]["text"])' "$work/$kind.out")"
done
# The bodies hold quotation marks, so they go into Lua long strings rather than quoted ones.
for kind in plain styled; do
    printf 'wrk.method = "POST"\nwrk.body = [==[%s]==]\nwrk.headers["Content-Type"] = "application/json"\nwrk.headers["Authorization"] = "%s"\n' \
        "${!kind}" "Service-Auth-Key $key" >"$work/$kind.lua"
done
wrk -t"$THREADS" -c"$CONNECTIONS" -d2s -s "$work/plain.lua" "http://$address/v2/translate" >/dev/null
wrk -t"$THREADS" -c"$CONNECTIONS" -d2s -s "$work/styled.lua" "http://$address/v2/translate" >/dev/null

echo
echo "translation with a list of 30 mechanical rules (wrk: $THREADS threads, $CONNECTIONS connections, $DURATION per run)"
alternate "http://$address/v2/translate" plain styled
echo "a request with the list takes ${slowdown}x the time of one without it (target: at most 1.10x)"
