import PBAgent
import PBCore

Tool.main(PlanCommand.spec) { try PlanCommand.run($0) }
