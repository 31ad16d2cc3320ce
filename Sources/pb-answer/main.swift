import PBAnswer
import PBCore

Tool.main(AnswerCommand.spec) { try AnswerCommand.run($0) }
